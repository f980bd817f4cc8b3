import { z } from 'zod';
import type { AppErrorShape } from '@shared/errors';
import type { ExtractedDoc } from '../types';
import type { ExtractLimits } from './limits';

/**
 * The messages between main and the extraction worker (`electron/main/extract-worker.ts`): one file asked for at a
 * time, answered with its text or its error. Both sides check what they receive.
 */
export interface ExtractRequest {
  id: number;
  file: string;
  limits: Partial<ExtractLimits>;
}

export type ExtractReply = { id: number; doc: ExtractedDoc } | { id: number; error: AppErrorShape };

export const extractRequestSchema = z.object({
  id: z.number().int(),
  file: z.string().min(1),
  limits: z.record(z.string(), z.number()),
});

const sectionSchema = z.object({
  headings: z.array(z.string()),
  page: z.number().int().optional(),
  start: z.number().int(),
  end: z.number().int(),
});

export const extractReplySchema = z.union([
  z.object({
    id: z.number().int(),
    doc: z.object({
      kind: z.enum(['text', 'markdown', 'code', 'pdf', 'docx', 'html', 'csv', 'json']),
      text: z.string(),
      sections: z.array(sectionSchema),
      pages: z.number().int().optional(),
    }),
  }),
  z.object({
    id: z.number().int(),
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  }),
]);
