import { z } from 'zod';
import { call } from './define';
import { hubKinds, type HubKind } from '../hub-kinds';
import { hubFreshnessSchema } from './hub';

const hubKindSchema = z.enum(hubKinds);

/** The orders the Hub offers, by the names people read (main maps them to `trendingScore`, `lastModified`…). */
const hubSorts = ['trending', 'downloads', 'likes', 'updated', 'created'] as const;
const hubSortSchema = z.enum(hubSorts);
export type HubSort = z.infer<typeof hubSortSchema>;

/** The order a search really uses: Spaces have no download count, so "downloads" orders them by likes. */
export const sortFor = (kind: HubKind, sort: HubSort): HubSort =>
  kind === 'spaces' && sort === 'downloads' ? 'likes' : sort;

/** One row of a Hub list, whatever its kind; fields the kind does not have are absent. */
const hubRepoSummarySchema = z.object({
  kind: hubKindSchema,
  id: z.string(),
  author: z.string().optional(),
  tags: z.array(z.string()),
  downloads: z.number().optional(),
  likes: z.number().optional(),
  lastModified: z.string().optional(),
  createdAt: z.string().optional(),
  /** Models. */
  pipeline_tag: z.string().optional(),
  library_name: z.string().optional(),
  /** Spaces: gradio, streamlit, docker, static. */
  sdk: z.string().optional(),
  /** Datasets: the card's summary. */
  description: z.string().optional(),
  private: z.boolean().optional(),
  gated: z.union([z.boolean(), z.string()]).optional(),
});
export type HubRepoSummary = z.infer<typeof hubRepoSummarySchema>;

const tagLike = z
  .string()
  .trim()
  .max(80)
  .regex(/^[\w.+-]*$/, 'letters, digits, dots, dashes or underscores');

const hubSearchInputSchema = z
  .object({
    kind: hubKindSchema.default('models'),
    search: z.string().trim().max(200).optional(),
    sort: hubSortSchema.default('trending'),
    /** Models: the task (`pipeline_tag`); datasets: `task_categories:<task>`. */
    pipeline_tag: tagLike.optional(),
    /** Models: the library (`library=`). */
    library: tagLike.optional(),
    /** A licence id such as apache-2.0 (`filter=license:<id>`). */
    license: tagLike.optional(),
    /** A user or organisation (`author=`). */
    author: z
      .string()
      .trim()
      .max(96)
      .regex(/^$|^[A-Za-z0-9][\w.-]*$/, 'a user or organisation name')
      .optional(),
    /** Models that run locally: GGUF (llama.cpp, Ollama…) or MLX (`filter=gguf` / `filter=mlx`). */
    runsLocally: z.enum(['gguf', 'mlx']).optional(),
    /** Models some inference provider serves (`inference_provider=all`). */
    provider: z.boolean().optional(),
    /** Spaces: the SDK (`filter=<sdk>`). */
    sdk: z.enum(['gradio', 'streamlit', 'docker', 'static']).optional(),
    limit: z.number().int().min(1).max(100).optional(),
    /** The opaque cursor of the next page, as `hub.search` returned it for this kind; the other fields are ignored. */
    cursor: z.string().max(2000).optional(),
  })
  .strict();
export type HubSearchInput = z.output<typeof hubSearchInputSchema>;

const hubSearchOutputSchema = z.object({
  kind: hubKindSchema,
  results: z.array(hubRepoSummarySchema),
  /** Cursor for the next page (from the `Link` header), absent on the last page. */
  next: z.string().optional(),
  freshness: hubFreshnessSchema,
});
export type HubSearchOutput = z.infer<typeof hubSearchOutputSchema>;

export const hubSearchCalls = {
  'hub.search': call({ input: hubSearchInputSchema, output: hubSearchOutputSchema }),
};
