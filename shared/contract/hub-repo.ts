import { z } from 'zod';
import { modelRecordSchema } from '../model-record';
import { call } from './define';
import { hubFreshnessSchema, repoIdSchema } from './hub';

/** One quantization of a GGUF repo: its label (Q4_K_M…), its file(s) and their total size when known. */
export const ggufQuantSchema = z.object({
  label: z.string(),
  files: z.array(z.string()),
  size: z.number().optional(),
});
export type GgufQuant = z.infer<typeof ggufQuantSchema>;

export const hubRepoCalls = {
  'hub.model': call({
    input: z.object({ id: repoIdSchema }).strict(),
    output: z.object({ model: modelRecordSchema, freshness: hubFreshnessSchema, quants: z.array(ggufQuantSchema) }),
  }),
};
