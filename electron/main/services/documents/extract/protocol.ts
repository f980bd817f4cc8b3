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

/**
 * A file's chunks come in slices of at most REPLY_SLICE (`chunks`), then the document with its last slice (`doc`):
 * main copies and checks each message in one go, and one of 45,000 passages held its event loop for a tenth of a
 * second.
 */
export type ExtractReply =
  | { id: number; chunks: ReadDocument['chunks'] }
  | { id: number; doc: ReadDocument }
  | { id: number; error: AppErrorShape };

export const REPLY_SLICE = 2_000;

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
  z.object({ id: z.number().int(), chunks: z.array(chunkSchema).max(REPLY_SLICE) }),
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
