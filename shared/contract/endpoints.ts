import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { call } from './define';

/**
 * OpenAI-compatible servers the user chats with beside Ollama and the Hugging Face router: llama.cpp's
 * llama-server, LM Studio, vLLM, Ollama's /v1, LocalAI, Jan, OpenRouter or anything else that speaks
 * `/v1/chat/completions`. Each has a name, a base URL and an optional key bound to that URL's origin.
 */
export const endpointPresets = [
  'llama.cpp',
  'lmstudio',
  'vllm',
  'ollama',
  'localai',
  'jan',
  'openrouter',
  'other',
] as const;
export const endpointPresetSchema = z.enum(endpointPresets);
export type EndpointPreset = z.infer<typeof endpointPresetSchema>;

export const endpointIdSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^e_[a-z0-9]+$/, 'not a valid endpoint id');

/** As typed: http(s) with a host; `/v1` may be there or not (main finds which the server answers). */
const baseUrlSchema = z
  .string()
  .trim()
  .min(1, 'Type the server address, e.g. http://127.0.0.1:8080')
  .max(2048)
  .refine(
    (s) => /^https?:\/\/[^\s/?#]+/i.test(s),
    'must start with http:// or https:// and a host, e.g. http://127.0.0.1:8080',
  );

/** What the page may know of an endpoint: never its key's value. */
export const endpointSchema = z.object({
  id: endpointIdSchema,
  name: z.string().max(80),
  preset: endpointPresetSchema,
  /** The OpenAI base URL requests go to, with `/v1` as the server needs it (after the doctor found it). */
  baseUrl: z.string().max(2048),
  /** A key is stored for this endpoint; it goes to `keyOrigin` only. */
  hasKey: z.boolean(),
  keyOrigin: z.string().max(2048).optional(),
  /** `env`: set by HUBDESK_ENDPOINTS for headless machines; read-only in the page. */
  source: z.enum(['user', 'env']),
});
export type Endpoint = z.infer<typeof endpointSchema>;

const endpointSaveSchema = z
  .object({
    /** Absent: a new endpoint. */
    id: endpointIdSchema.optional(),
    name: z.string().trim().min(1, 'Give the endpoint a name').max(80),
    preset: endpointPresetSchema,
    baseUrl: baseUrlSchema,
    /** A string sets the key (bound to this base URL's origin), `null` removes it, absent keeps it — unless the
     * address moved to another origin, which drops it until it is typed again. */
    apiKey: z.string().trim().min(1).max(4096).nullable().optional(),
  })
  .strict();
export type EndpointSave = z.infer<typeof endpointSaveSchema>;

/** One thing the doctor checked: what works, or what is wrong in words a person can act on. */
const doctorCheckSchema = z.object({
  name: z.enum(['reach', 'models', 'chat', 'streaming', 'tools', 'reasoning', 'usage', 'context']),
  ok: z.boolean(),
  /** Not seen in the doctor's one-token reply: unknown rather than failing (a model may reason on longer answers). */
  unseen: z.boolean().optional(),
  detail: z.string().max(2000),
});

export const doctorReportSchema = z.object({
  ok: z.boolean(),
  /** The base URL that answered (with or without `/v1`), to keep. */
  baseUrl: z.string().max(2048),
  /** When not ok: what is wrong and what to do (connection refused, unknown host, TLS, 401/403, 404, timeout…). */
  problem: appErrorSchema.optional(),
  checks: z.array(doctorCheckSchema).max(16),
  models: z.number().int().min(0).optional(),
  elapsedMs: z.number().min(0),
});
export type DoctorReport = z.infer<typeof doctorReportSchema>;

/** The most a context length the user gives may be (the largest models run with a few million). */
export const MAX_CONTEXT_LENGTH = 10_000_000;

/** A model an endpoint serves, with what the server says of it. */
export const endpointModelSchema = z.object({
  id: z.string().max(512),
  /** The context length the server runs it with (llama.cpp /props n_ctx, vLLM max_model_len, LM Studio). */
  contextLength: z.number().int().positive().optional(),
  /** Who gave `contextLength`: the server, or the user (asked in the chat when the server does not say, and kept). */
  contextSource: z.enum(['server', 'user']).optional(),
  /** The model takes images (LM Studio `type: vlm`, llama.cpp `/props` `modalities.vision`). */
  vision: z.boolean().optional(),
  /** The context the model was trained with (llama.cpp meta.n_ctx_train). */
  trainedContext: z.number().int().positive().optional(),
  /** A Hugging Face repo the id names (`org/name`, or a GGUF file's repo), for a link to its model page. */
  hubRepo: z.string().max(200).optional(),
  /** LM Studio: `llm`, `vlm` or `embeddings`; loaded or not. */
  type: z.string().max(32).optional(),
  loaded: z.boolean().optional(),
});
export type EndpointModel = z.infer<typeof endpointModelSchema>;

const byId = z.object({ id: endpointIdSchema }).strict();

export const endpointCalls = {
  'endpoints.list': call({ input: z.object({}).strict(), output: z.object({ endpoints: z.array(endpointSchema) }) }),
  /** Saves after the doctor ran: the answer carries its report (an endpoint that fails is saved all the same). */
  'endpoints.save': call({
    input: endpointSaveSchema,
    output: z.object({ endpoint: endpointSchema, report: doctorReportSchema }),
  }),
  'endpoints.remove': call({ input: byId, output: z.object({ removed: z.literal(true) }) }),
  /** "Test": `GET /v1/models` and a one-token chat, within a few seconds. */
  'endpoints.test': call({ input: byId, output: doctorReportSchema }),
  'endpoints.models': call({ input: byId, output: z.object({ models: z.array(endpointModelSchema) }) }),
  /** The context length the server runs a model with, when the server does not say it: kept per endpoint and model. */
  'endpoints.setContext': call({
    input: z
      .object({
        id: endpointIdSchema,
        model: z.string().min(1).max(512),
        contextLength: z
          .number()
          .int('Type a whole number of tokens')
          .min(256, 'A context under 256 tokens holds no conversation')
          .max(MAX_CONTEXT_LENGTH, `At most ${MAX_CONTEXT_LENGTH.toLocaleString('en')} tokens`),
      })
      .strict(),
    output: z.object({ saved: z.literal(true) }),
  }),
};
