import type { ModelData } from '@huggingface/tasks';
import type { ModelRecord } from '@shared/model-record';

/** What the library reads from a model: the record as the Hub sends it, with `tags` always present. */
export function toModelData(model: ModelRecord): ModelData {
  return { ...model, tags: model.tags ?? [], inference: '' } as unknown as ModelData;
}

/** The options object handed to getInferenceSnippets: only the keys the user set; `inputs` JSON-encoded. */
