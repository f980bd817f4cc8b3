import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { repoIdSchema } from './hub';
import { localModelIdSchema } from './local-models';

export const downloadStateSchema = z.enum([
  'queued',
  'downloading',
  'paused',
  'verifying',
  'done',
  'failed',
  'cancelled',
]);
export type DownloadState = z.infer<typeof downloadStateSchema>;

export const downloadSchema = z.object({
  id: z.string(),
  repo: repoIdSchema,
  revision: z.string(),
  /** The file the user chose; `files` lists every part of a split GGUF, fetched together. */
  file: z.string(),
  files: z.array(z.string()),
  state: downloadStateSchema,
  receivedBytes: z.number(),
  totalBytes: z.number(),
  /** Over the last few seconds; 0 when not downloading. */
  bytesPerSecond: z.number(),
  etaSeconds: z.number().optional(),
  error: appErrorSchema.optional(),
  /** Failed because the bytes' sha256 did not match the Hub's: its files are deleted; "Delete and download again". */
  checksumMismatch: z.boolean().optional(),
  /** Once done and verified: the local model to load. */
  modelId: localModelIdSchema.optional(),
  createdAt: z.string(),
});
export type Download = z.infer<typeof downloadSchema>;
