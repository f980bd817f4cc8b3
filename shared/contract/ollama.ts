import { z } from 'zod';
import { MODEL_NAME_HINT, MODEL_NAME_MAX, MODEL_NAME_RE, MODEL_NAME_REQUIRED } from '../model-name';
import { appErrorSchema } from './error-schema';
import { call, stream } from './define';

/**
 * Ollama model names: [host/][namespace/]model[:tag], as the server parses them.
 * Checked before any request so a typo gets a clear message instead of a 400.
 */
const modelNameSchema = z
  .string()
  .trim()
  .min(1, MODEL_NAME_REQUIRED)
  .max(MODEL_NAME_MAX)
  .regex(MODEL_NAME_RE, MODEL_NAME_HINT);

const modelDetailsSchema = z.object({
  parent_model: z.string().optional(),
  format: z.string().optional(),
  family: z.string().optional(),
  families: z.array(z.string()).nullable().optional(),
  parameter_size: z.string().optional(),
  quantization_level: z.string().optional(),
});

const localModelSchema = z.object({
  name: z.string(),
  model: z.string(),
  modified_at: z.string(),
  size: z.number(),
  digest: z.string(),
  details: modelDetailsSchema,
  /** What the model can do ("completion", "embedding"…), when /api/tags says (newer Ollama). */
  capabilities: z.array(z.string()).optional(),
});
export type LocalModel = z.infer<typeof localModelSchema>;

const ollamaStatusSchema = z.object({
  host: z.string(),
  reachable: z.boolean(),
  version: z.string().optional(),
  error: appErrorSchema.optional(),
});
export type OllamaStatus = z.infer<typeof ollamaStatusSchema>;

/** One progress line of a pull/push/create, as Ollama sends it. */
const progressEventSchema = z.object({
  status: z.string(),
  digest: z.string().optional(),
  total: z.number().optional(),
  completed: z.number().optional(),
});
export type ProgressEvent = z.infer<typeof progressEventSchema>;

/** A model loaded in memory (GET /api/ps). */
const runningModelSchema = z.object({
  name: z.string(),
  model: z.string(),
  size: z.number(),
  size_vram: z.number(),
  digest: z.string(),
  details: modelDetailsSchema,
  expires_at: z.string(),
  context_length: z.number().optional(),
});
export type RunningModel = z.infer<typeof runningModelSchema>;

/** What `ollama show` tells about a model; `model_info` keeps only scalar values (no token tables). */
const modelShowSchema = z.object({
  name: z.string(),
  license: z.string().optional(),
  modelfile: z.string(),
  parameters: z.string().optional(),
  template: z.string().optional(),
  system: z.string().optional(),
  details: modelDetailsSchema,
  model_info: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  capabilities: z.array(z.string()),
  modified_at: z.string().optional(),
});
export type ModelShow = z.infer<typeof modelShowSchema>;

const parameterValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]);

const createInputSchema = z
  .object({
    model: modelNameSchema,
    from: modelNameSchema,
    system: z.string().max(100_000).optional(),
    template: z.string().max(100_000).optional(),
    /** Modelfile parameters, e.g. {temperature: 0.7, num_ctx: 8192, stop: ["<|eot_id|>"]}. */
    parameters: z.record(z.string().regex(/^[a-z_]+$/, 'a parameter name is lower case'), parameterValue).optional(),
    quantize: z.string().max(32).optional(),
  })
  .strict();
export type CreateInput = z.infer<typeof createInputSchema>;

const embedResultSchema = z.object({
  model: z.string(),
  embeddings: z.array(z.array(z.number())),
  total_duration: z.number().optional(),
  prompt_eval_count: z.number().optional(),
});
export type EmbedResult = z.infer<typeof embedResultSchema>;

const success = z.object({ status: z.literal('success') });
const nameOnly = z.object({ model: modelNameSchema }).strict();

export const ollamaCalls = {
  'ollama.status': call({ input: z.object({}).strict(), output: ollamaStatusSchema }),
  'ollama.version': call({ input: z.object({}).strict(), output: z.object({ version: z.string() }) }),
  'ollama.list': call({
    input: z.object({}).strict(),
    output: z.object({ models: z.array(localModelSchema) }),
  }),
  'ollama.ps': call({
    input: z.object({}).strict(),
    output: z.object({ models: z.array(runningModelSchema) }),
  }),
  'ollama.show': call({ input: nameOnly, output: modelShowSchema }),
  'ollama.pull': stream({
    input: z.object({ model: modelNameSchema, insecure: z.boolean().optional() }).strict(),
    event: progressEventSchema,
    result: success,
  }),
  'ollama.push': stream({
    input: z.object({ model: modelNameSchema, insecure: z.boolean().optional() }).strict(),
    event: progressEventSchema,
    result: success,
  }),
  'ollama.create': stream({ input: createInputSchema, event: progressEventSchema, result: success }),
  'ollama.copy': call({
    input: z.object({ source: modelNameSchema, destination: modelNameSchema }).strict(),
    output: z.object({ ok: z.literal(true) }),
  }),
  'ollama.delete': call({ input: nameOnly, output: z.object({ ok: z.literal(true) }) }),
  'ollama.embed': call({
    input: z
      .object({
        model: modelNameSchema,
        input: z.union([z.string().max(200_000), z.array(z.string().max(200_000)).max(256)]),
        dimensions: z.number().int().positive().max(65_536).optional(),
        truncate: z.boolean().optional(),
      })
      .strict(),
    output: embedResultSchema,
  }),
};
