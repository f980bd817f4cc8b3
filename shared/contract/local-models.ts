import { z } from 'zod';
import { repoIdSchema } from './hub';

/** Where a GGUF was found. Only `downloaded` files are HubDesk's own: the others are never deleted, only forgotten. */
export const localSourceSchema = z.enum(['downloaded', 'hf-cache', 'lmstudio', 'folder']);
export type LocalSource = z.infer<typeof localSourceSchema>;

/**
 * A local model's id: `<org>/<name>/<file>.gguf` when its Hub repo is known from the path (stable across cache
 * revisions and shared by a download and a cached copy of the same file), else the file's absolute path.
 */
export const localModelIdSchema = z.string().trim().min(3).max(1024);

const loadPlanSchema = z.object({
  /** The context length the fit verdict proposes (the model's trained length, capped by what fits). */
  contextSize: z.number().int(),
  /** The model's trained context length, when the header says. */
  maxContext: z.number().int().optional(),
  /** Layers on the GPU the fit proposes: 0 on a machine without a GPU, `layers` when all fit. */
  gpuLayers: z.number().int(),
  layers: z.number().int().optional(),
  /**
   * Requests it answers at once (llama.cpp sequences, each with its own KV cache of `contextSize` tokens): as many
   * as fit beside the weights without changing the verdict, at most 4.
   */
  sequences: z.number().int().min(1).optional(),
  verdict: z.enum(['vram', 'partial', 'ram', 'too-large']).optional(),
  /** The fit verdict's plain explanation (needs about … compared with …). */
  explanation: z.string().optional(),
  /**
   * The memory the verdict counts for this plan (every sequence's KV cache included): the one figure the library,
   * the chat's model picker and Compare show for the model before it is loaded.
   */
  memory: z.object({ fileBytes: z.number(), kvBytes: z.number(), runtimeBytes: z.number() }).optional(),
});
export type LoadPlan = z.infer<typeof loadPlanSchema>;

const localModelSchema = z.object({
  id: localModelIdSchema,
  /** The file name without the split suffix and `.gguf`. */
  name: z.string(),
  /** The first (or only) file's absolute path. */
  path: z.string(),
  /** Split GGUFs (`-00001-of-0000N`): the number of parts, all present. */
  parts: z.number().int().min(1),
  source: localSourceSchema,
  /** The root folder it was found under (a Settings folder, the HF cache, LM Studio's models folder). */
  folder: z.string(),
  /** The Hub repo, from the path (HF cache `models--org--name`, LM Studio `publisher/repo`, downloads `org/name`). */
  repo: repoIdSchema.optional(),
  quant: z.string().optional(),
  architecture: z.string().optional(),
  /** `general.name` from the header. */
  title: z.string().optional(),
  sizeBytes: z.number(),
  /** An embedding model (BERT-like architectures, or a pooling type in the header): offered for embeddings only. */
  embedding: z.boolean(),
  /**
   * A reranker (a classification head, `cls.weight`/`cls.output.weight`, or the rank pooling type in the header):
   * offered for POST /v1/rerank only, never for chat or embeddings. Absent: not one.
   */
  reranker: z.boolean().optional(),
  /** HubDesk downloaded it and may delete it. */
  deletable: z.boolean(),
  /** The file's sha256 was compared with the Hub's LFS oid (downloads) or the blob name (HF cache) and matched. */
  verified: z.boolean().optional(),
  plan: loadPlanSchema.optional(),
  /** Why it cannot be used (not a GGUF, truncated, parts missing): listed so the user sees it, not offered to load. */
  problem: z.string().optional(),
});
export type LocalModel = z.infer<typeof localModelSchema>;

const localFolderSchema = z.object({
  path: z.string(),
  source: localSourceSchema,
  /** Found by HubDesk (HF cache, LM Studio, downloads) rather than added by the user. */
  auto: z.boolean(),
  exists: z.boolean(),
  /** Models listed from it (usable ones and the first MAX_PROBLEM_ROWS with a problem). */
  models: z.number().int(),
  /** Files with a problem past the first few hundred: counted, not listed (a folder of 50,000 broken files). */
  problemsHidden: z.number().int().nonnegative().optional(),
});
export type LocalFolder = z.infer<typeof localFolderSchema>;

export const localModelsSchema = z.object({ models: z.array(localModelSchema), folders: z.array(localFolderSchema) });
export type LocalModels = z.infer<typeof localModelsSchema>;

/** A small GGUF HubDesk offers when nothing local is set up: the largest of a short list that fits this machine. */
export const recommendationSchema = z.object({
  repo: repoIdSchema,
  file: z.string(),
  quant: z.string(),
  sizeBytes: z.number(),
  title: z.string(),
  why: z.string(),
  /** Already on disk: its local id, to load instead of download. */
  modelId: localModelIdSchema.optional(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;
