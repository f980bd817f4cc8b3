import { z } from 'zod';

/**
 * One provider's mapping for a model, as the Hub returns it under `inferenceProviderMapping`
 * (normalised to an array; the Hub sends an object keyed by provider or an array).
 */
export const providerMappingEntrySchema = z.object({
  provider: z.string(),
  hfModelId: z.string(),
  providerId: z.string(),
  status: z.enum(['live', 'staging']),
  task: z.string(),
  adapter: z.string().optional(),
  adapterWeightsPath: z.string().optional(),
  type: z.enum(['single-model', 'tag-filter']).optional(),
});
export type ProviderMappingEntry = z.infer<typeof providerMappingEntrySchema>;

const siblingSchema = z.object({ rfilename: z.string(), size: z.number().optional() });

/**
 * Everything HubDesk knows of a model: what the snippet builders of @huggingface/tasks and
 * @huggingface/inference read, plus the Hub figures the model page shows. One type for the
 * embedded catalogue, the live Hub, the cache and the CLI's --model-file.
 */
export const modelRecordSchema = z.object({
  id: z.string().min(1),
  author: z.string().optional(),
  tags: z.array(z.string()).default([]),
  pipeline_tag: z.string().optional(),
  library_name: z.string().optional(),
  /** Includes the per-library sub-objects (diffusers, peft, speechbrain, sklearn, tokenizer_config…). */
  config: z.record(z.string(), z.unknown()).optional(),
  cardData: z.record(z.string(), z.unknown()).optional(),
  widgetData: z.array(z.record(z.string(), z.unknown())).optional(),
  transformersInfo: z
    .object({
      auto_model: z.string(),
      custom_class: z.string().optional(),
      pipeline_tag: z.string().optional(),
      processor: z.string().optional(),
    })
    .optional(),
  mask_token: z.string().optional(),
  inferenceProviderMapping: z.array(providerMappingEntrySchema).optional(),
  gguf: z
    .object({
      total: z.number().optional(),
      architecture: z.string().optional(),
      context_length: z.number().optional(),
      chat_template: z.string().optional(),
      bos_token: z.string().optional(),
      eos_token: z.string().optional(),
    })
    .optional(),
  /** Parameter count per tensor dtype (BF16, F32, I8…, MXFP4) and their sum, from the repo's safetensors headers. */
  safetensors: z.object({ parameters: z.record(z.string(), z.number()), total: z.number().optional() }).optional(),
  /** Ids of the Spaces that use this model. */
  spaces: z.array(z.string()).optional(),
  createdAt: z.string().optional(),
  /** Bytes the repo takes on the Hub, all revisions. */
  usedStorage: z.number().optional(),
  siblings: z.array(siblingSchema).optional(),
  downloads: z.number().optional(),
  likes: z.number().optional(),
  lastModified: z.string().optional(),
  private: z.boolean().optional(),
  gated: z.union([z.boolean(), z.string()]).optional(),
  /** Free text from the embedded task data, when the model comes from there. */
  description: z.string().optional(),
});
export type ModelRecord = z.infer<typeof modelRecordSchema>;
