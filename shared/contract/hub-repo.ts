import { z } from 'zod';
import { repoKinds } from '../hub-kinds';
import { modelRecordSchema } from '../model-record';
import { call } from './define';
import { hubFreshnessSchema, repoIdSchema } from './hub';

/** One quantization of a GGUF repo: its label (Q4_K_M…), its file(s) and their total size when known. */
const ggufQuantSchema = z.object({
  label: z.string(),
  files: z.array(z.string()),
  size: z.number().optional(),
});
export type GgufQuant = z.infer<typeof ggufQuantSchema>;

/** A Hub repo's kind, in the singular (named in shared/hub-kinds.ts). */
const repoKindSchema = z.enum(repoKinds);
export type { RepoKind } from '../hub-kinds';
/** Datasets and Spaces: the kinds `hub.repo` describes (a model has `hub.model`). */
const otherRepoKindSchema = repoKindSchema.exclude(['model']);

/** How a model derives from a base model, as the Hub tags it (`base_model:<relation>:<id>`). */
const lineageRelationSchema = z.enum(['finetune', 'adapter', 'merge', 'quantized']);
export type LineageRelation = z.infer<typeof lineageRelationSchema>;

/** A Hub model named in a lineage list. */
const repoLinkSchema = z.object({
  id: z.string(),
  downloads: z.number().optional(),
  likes: z.number().optional(),
  pipeline_tag: z.string().optional(),
});
export type RepoLink = z.infer<typeof repoLinkSchema>;

/** A dataset or a Space, from `/api/datasets/{id}` or `/api/spaces/{id}`. */
const hubRepoInfoSchema = z.object({
  kind: otherRepoKindSchema,
  id: z.string(),
  author: z.string().optional(),
  tags: z.array(z.string()),
  downloads: z.number().optional(),
  likes: z.number().optional(),
  lastModified: z.string().optional(),
  createdAt: z.string().optional(),
  private: z.boolean().optional(),
  gated: z.union([z.boolean(), z.string()]).optional(),
  cardData: z.record(z.string(), z.unknown()).optional(),
  description: z.string().optional(),
  usedStorage: z.number().optional(),
  /** Spaces: gradio, streamlit, docker, static. */
  sdk: z.string().optional(),
  /** Spaces: RUNNING, SLEEPING, BUILDING, RUNTIME_ERROR… */
  runtimeStage: z.string().optional(),
  /** Spaces: the models and datasets it uses. */
  models: z.array(z.string()).optional(),
  datasets: z.array(z.string()).optional(),
  fileCount: z.number().optional(),
});
export type HubRepoInfo = z.infer<typeof hubRepoInfoSchema>;

/** One entry of a repo tree, as `/api/{kind}s/{id}/tree/{rev}` lists it. */
export const treeEntrySchema = z.object({
  type: z.enum(['file', 'directory']),
  path: z.string(),
  size: z.number(),
  oid: z.string().optional(),
  lfs: z.object({ oid: z.string(), size: z.number(), pointerSize: z.number().optional() }).optional(),
});
export type TreeEntry = z.infer<typeof treeEntrySchema>;

const repoRef = z.object({ kind: repoKindSchema, id: repoIdSchema }).strict();

export const hubRepoCalls = {
  'hub.model': call({
    input: z.object({ id: repoIdSchema }).strict(),
    output: z.object({ model: modelRecordSchema, freshness: hubFreshnessSchema, quants: z.array(ggufQuantSchema) }),
  }),
  /** Models derived from this one (Hub repos tagged `base_model:<relation>:<id>`), most downloaded first. */
  'hub.derived': call({
    input: z.object({ id: repoIdSchema, relation: lineageRelationSchema }).strict(),
    output: z.object({
      models: z.array(repoLinkSchema),
      /** More exist on the Hub than listed. */
      more: z.boolean(),
      freshness: hubFreshnessSchema,
    }),
  }),
  'hub.repo': call({
    input: z.object({ kind: otherRepoKindSchema, id: repoIdSchema }).strict(),
    output: z.object({ repo: hubRepoInfoSchema, freshness: hubFreshnessSchema }),
  }),
  /** The repo's README.md (model card), its YAML front matter cut off; capped in size. */
  'hub.readme': call({
    input: repoRef,
    output: z.object({
      /** Absent when the repo has no README. */
      markdown: z.string().optional(),
      /** The front matter as text (the Hub's parsed copy is `cardData`). */
      frontMatter: z.string().optional(),
      /** Bytes of the whole file when known. */
      size: z.number().optional(),
      /** Only the first part was kept: the file is larger than the cap. */
      truncated: z.boolean(),
      /** The README is behind the repo's gate: what to do to read it (accept the terms, set a token). */
      gated: z.string().optional(),
      freshness: hubFreshnessSchema,
    }),
  }),
  /** The repo's files, recursive, bounded: at most a few thousand entries, with a cursor for more. */
  'hub.tree': call({
    input: repoRef.extend({ cursor: z.string().max(2000).optional() }).strict(),
    output: z.object({
      entries: z.array(treeEntrySchema),
      /** Cursor of the next part; absent when the listing is complete. */
      next: z.string().optional(),
      freshness: hubFreshnessSchema,
    }),
  }),
};
