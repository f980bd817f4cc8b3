import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { call, stream } from './define';

/**
 * Ollama model names: [host/][namespace/]model[:tag], as the server parses them.
 * Checked before any request so a typo gets a clear message instead of a 400.
 */
export const modelNameSchema = z
  .string()
  .trim()
  .min(1, 'a model name is required')
  .max(350)
  .regex(
    /^(?:[A-Za-z0-9][A-Za-z0-9._-]*(?::\d+)?\/)?(?:[A-Za-z0-9_][A-Za-z0-9._-]{0,79}\/)*[A-Za-z0-9_][A-Za-z0-9._-]{0,79}(?::[A-Za-z0-9_][A-Za-z0-9._-]{0,79})?$/,
    'not a valid Ollama model name (expected name[:tag], e.g. llama3.2 or hf.co/owner/repo:Q4_K_M)',
  );

export const modelDetailsSchema = z.object({
  parent_model: z.string().optional(),
  format: z.string().optional(),
  family: z.string().optional(),
  families: z.array(z.string()).nullable().optional(),
  parameter_size: z.string().optional(),
  quantization_level: z.string().optional(),
});

export const localModelSchema = z.object({
  name: z.string(),
  model: z.string(),
  modified_at: z.string(),
  size: z.number(),
  digest: z.string(),
  details: modelDetailsSchema,
});
export type LocalModel = z.infer<typeof localModelSchema>;

export const ollamaStatusSchema = z.object({
  host: z.string(),
  reachable: z.boolean(),
  version: z.string().optional(),
  error: appErrorSchema.optional(),
});
export type OllamaStatus = z.infer<typeof ollamaStatusSchema>;

/** One progress line of a pull/push/create, as Ollama sends it. */
export const progressEventSchema = z.object({
  status: z.string(),
  digest: z.string().optional(),
  total: z.number().optional(),
  completed: z.number().optional(),
});
export type ProgressEvent = z.infer<typeof progressEventSchema>;

export const ollamaCalls = {
  'ollama.status': call({ input: z.object({}).strict(), output: ollamaStatusSchema }),
  'ollama.list': call({
    input: z.object({}).strict(),
    output: z.object({ models: z.array(localModelSchema) }),
  }),
  'ollama.pull': stream({
    input: z.object({ model: modelNameSchema, insecure: z.boolean().optional() }).strict(),
    event: progressEventSchema,
    result: z.object({ status: z.literal('success') }),
  }),
};
