import { z } from 'zod';
import type { AppErrorShape } from '@shared/errors';
import type { ExtractLimits } from './limits';
import type { ReadDocument } from './read';

/**
 * The messages between main and the extraction worker (`electron/main/extract-worker.ts`): one file asked for at a
 * time, answered with its text or its error. Both sides check what they receive.
 */
export interface ExtractRequest {
  id: number;
  file: string;
  limits: Partial<ExtractLimits>;
}

export type ExtractReply = { id: number; doc: ReadDocument } | { id: number; error: AppErrorShape };

export const extractRequestSchema = z.object({
  id: z.number().int(),
  file: z.string().min(1),
  limits: z.record(z.string(), z.number()),
});

const chunkSchema = z.object({
  text: z.string(),
  headings: z.array(z.string()),
  page: z.number().int().optional(),
  start: z.number().int(),
  end: z.number().int(),
  tokens: z.number(),
});

export const extractReplySchema = z.union([
  z.object({
    id: z.number().int(),
    doc: z.object({
      kind: z.enum(['text', 'markdown', 'code', 'pdf', 'docx', 'html', 'csv', 'json']),
      pages: z.number().int().optional(),
      chunks: z.array(chunkSchema),
    }),
  }),
  z.object({
    id: z.number().int(),
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  }),
]);
