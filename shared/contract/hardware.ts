import { z } from 'zod';
import { call } from './define';
import { repoIdSchema } from './hub';

// This machine's memory (for the GGUF fit verdicts) and the GGUF header facts the KV-cache estimate needs.

const gpuSchema = z.object({
  name: z.string(),
  vendor: z.enum(['nvidia', 'amd', 'apple']),
  /** Bytes. */
  vramTotal: z.number(),
  vramFree: z.number().optional(),
});
export type Gpu = z.infer<typeof gpuSchema>;

const hardwareSchema = z.object({
  ramTotal: z.number(),
  ramFree: z.number(),
  gpus: z.array(gpuSchema),
  /** Apple Silicon: the GPU uses the system RAM (no separate VRAM). */
  unified: z.boolean(),
});
export type Hardware = z.infer<typeof hardwareSchema>;

/** The Settings override, like huggingface.co's hardware picker: the GPU's VRAM and the RAM, in GB (GiB). */
export const hardwareOverrideSchema = z
  .object({
    vramGiB: z.number().min(0).max(2048),
    ramGiB: z.number().min(0.5).max(65536),
    unified: z.boolean().optional(),
  })
  .strict();
export type HardwareOverride = z.infer<typeof hardwareOverrideSchema>;

const hardwareViewSchema = z.object({
  detected: hardwareSchema,
  /** How each probe went (`nvidia-smi: not installed`…), for the Settings page. */
  probes: z.array(z.object({ tool: z.string(), result: z.string() })),
  /** What the fit verdicts use: the override when set, else what was detected. */
  effective: hardwareSchema,
  source: z.enum(['detected', 'override']),
});
export type HardwareView = z.infer<typeof hardwareViewSchema>;

/** What the KV-cache estimate reads from a GGUF header (the keys llama.cpp writes). */
const ggufHeaderSchema = z.object({
  architecture: z.string().optional(),
  name: z.string().optional(),
  blockCount: z.number().optional(),
  contextLength: z.number().optional(),
  embeddingLength: z.number().optional(),
  headCount: z.number().optional(),
  headCountKv: z.number().optional(),
  keyLength: z.number().optional(),
  valueLength: z.number().optional(),
  parameterCount: z.number().optional(),
});
export type GgufHeader = z.infer<typeof ggufHeaderSchema>;

export const hardwareCalls = {
  'system.hardware': call({
    input: z.object({ refresh: z.boolean().optional() }).strict(),
    output: hardwareViewSchema,
  }),
  /** Reads the header of one GGUF file of a Hub repo with range requests (only with Hub access on). */
  'hub.ggufHeader': call({
    input: z
      .object({
        id: repoIdSchema,
        file: z
          .string()
          .trim()
          .min(1)
          .max(500)
          .regex(/^(?!.*\.\.)[\w./ +-]+\.gguf$/i, 'a .gguf file of the repo'),
      })
      .strict(),
    output: ggufHeaderSchema,
  }),
};
