import { z } from 'zod';
import { modelRecordSchema } from '../model-record';
import { call } from './define';

/** `{id, description}` as @huggingface/tasks lists models, datasets, spaces and metrics of a task. */
const idDescriptionSchema = z.object({ id: z.string(), description: z.string() });

/** One demo item of a task: text (`label`, `content`), a file (`img`/`audio` with `filename`) or a chart/table. */
const demoItemSchema = z.object({
  type: z.string(),
  label: z.string().optional(),
  content: z.string().optional(),
  filename: z.string().optional(),
  data: z.unknown().optional(),
});
export type DemoItem = z.infer<typeof demoItemSchema>;

/**
 * A pipeline type with what the task data says about it.
 * `status`: `ok` has a page; `canonical` leads to `canonicalId`'s page; `missing` (no data) and `placeholder`
 * show what is known.
 */
const catalogueTaskSchema = z.object({
  id: z.string(),
  name: z.string(),
  modality: z.string(),
  status: z.enum(['ok', 'canonical', 'missing', 'placeholder']),
  canonicalId: z.string().optional(),
  label: z.string().optional(),
  summary: z.string().optional(),
  subtasks: z.array(z.object({ type: z.string(), name: z.string() })),
  /** Libraries the task data lists. */
  libraries: z.array(z.string()),
  /** Libraries whose own task mapping declares this pipeline type. */
  declaredBy: z.array(z.string()),
  widgetModels: z.array(z.string()),
  models: z.array(idDescriptionSchema),
  datasets: z.array(idDescriptionSchema),
  spaces: z.array(idDescriptionSchema),
  metrics: z.array(idDescriptionSchema),
  demo: z.object({ inputs: z.array(demoItemSchema), outputs: z.array(demoItemSchema) }).optional(),
  youtubeId: z.string().optional(),
});
export type CatalogueTask = z.infer<typeof catalogueTaskSchema>;

const catalogueLibrarySchema = z.object({
  id: z.string(),
  prettyLabel: z.string(),
  repoName: z.string(),
  repoUrl: z.string(),
  docsUrl: z.string().optional(),
  /** Offered as a filter on the Hub's model list (`filter: true`); undefined when the entry does not say. */
  filter: z.boolean().optional(),
  /** The Elastic-style query saying which file fetches count as a download, verbatim. */
  countDownloads: z.string().optional(),
  hasSnippets: z.boolean(),
  /** Tasks whose data lists this library. */
  tasks: z.array(z.string()),
  /** Pipeline types the library declares (LIBRARY_TASK_MAPPING). */
  declaredTasks: z.array(z.string()),
});
export type CatalogueLibrary = z.infer<typeof catalogueLibrarySchema>;

/** A model named by the task data: a ModelRecord (snippets run on it offline) plus every task mentioning it. */
const catalogueModelSchema = modelRecordSchema.extend({
  tasks: z.array(z.string()),
  widget: z.boolean(),
});
export type CatalogueModel = z.infer<typeof catalogueModelSchema>;

const catalogueItemSchema = z.object({
  id: z.string(),
  description: z.string(),
  tasks: z.array(z.string()),
});
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;

/** The whole embedded catalogue, sent to the renderer in one call; the renderer searches it in memory. */
export const catalogueDataSchema = z.object({
  version: z.string(),
  modalities: z.array(z.object({ id: z.string(), label: z.string() })),
  tasks: z.array(catalogueTaskSchema),
  libraries: z.array(catalogueLibrarySchema),
  models: z.array(catalogueModelSchema),
  datasets: z.array(catalogueItemSchema),
  apps: z.array(catalogueItemSchema),
});
export type CatalogueData = z.infer<typeof catalogueDataSchema>;

export const catalogueCalls = {
  'catalogue.get': call({ input: z.object({}).strict(), output: catalogueDataSchema }),
};
