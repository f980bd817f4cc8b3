import { z } from 'zod';
import { appErrorSchema } from './error-schema';
import { localModelIdSchema } from './local-models';

const loadedModelSchema = z.object({
  id: localModelIdSchema,
  name: z.string(),
  contextSize: z.number().int(),
  gpuLayers: z.number().int(),
  /** Requests it answers at once; more wait in order. */
  sequences: z.number().int(),
  /** CPU threads its context computes with. */
  threads: z.number().int().optional(),
  /** Requests being answered now, and waiting for a free sequence. */
  busy: z.number().int(),
  waiting: z.number().int(),
  /** The weights plus the context's KV cache and buffers, as llama.cpp reports them. */
  memoryBytes: z.number(),
  loadedAt: z.string(),
  /** When it unloads if left idle (absent: kept until unloaded by hand, or busy now). */
  unloadAt: z.string().optional(),
  embedding: z.boolean(),
  reranker: z.boolean().optional(),
});
export type LoadedModel = z.infer<typeof loadedModelSchema>;

export const engineStatusSchema = z.object({
  /** Whether llama.cpp has been started in this run (it starts on first use, not at launch). */
  started: z.boolean(),
  /** The compute backend llama.cpp uses once started: `cpu`, `cuda`, `vulkan`, `metal`. */
  gpu: z.string().optional(),
  loaded: z.array(loadedModelSchema),
  /** Minutes a loaded model stays after its last use before it unloads; 0 keeps it until unloaded by hand. */
  keepAliveMinutes: z.number().int(),
  /** The engine could not start (its binaries missing or refused on this machine). */
  error: appErrorSchema.optional(),
  /** CPU threads per model: the user's count, or (auto) every math core but one. */
  threads: z.object({ value: z.number().int(), auto: z.boolean() }),
  /** The engine's own process (llama.cpp runs apart from the app) while it runs, with its memory when known. */
  host: z.object({ pid: z.number().int(), rssBytes: z.number().optional() }).optional(),
  /** The last time the engine's process ended unexpectedly, and why. */
  lastStop: z.object({ at: z.string(), message: z.string() }).optional(),
});
export type EngineStatus = z.infer<typeof engineStatusSchema>;
