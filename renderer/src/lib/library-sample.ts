import type { CatalogueModel } from '@shared/contract/catalogue';
import type { ModelRecord } from '@shared/model-record';
import { isTaskDefaultInfo, transformersInfoForTask, transformersTasks } from '@shared/transformers-auto';

const taskRank = (m: ModelRecord) => {
  const i = transformersTasks.indexOf(m.pipeline_tag ?? '');
  return i < 0 ? Infinity : i;
};

/** A record with classes of its own (not only its task's defaults) makes the surest transformers sample. */
const ownInfo = (m: ModelRecord) => !!m.transformersInfo && !isTaskDefaultInfo(m);

/** The richest record makes the best sample: generators read transformersInfo and config when they are there. */
const richness = (m: ModelRecord) => (m.transformersInfo ? 4 : 0) + (m.config ? 2 : 0) + (m.pipeline_tag ? 1 : 0);

/**
 * The embedded model a library's sample snippet is written for: for transformers, one whose class is known (its own
 * `transformersInfo`, else its task's — shared/transformers-auto.ts), the commonest task first; for the others, the
 * richest record.
 */
export function librarySampleModel(library: string, models: Iterable<CatalogueModel>): ModelRecord | undefined {
  const ofLib = [...models].filter((m) => m.library_name === library);
  const byRichness = (a: CatalogueModel, b: CatalogueModel) =>
    richness(b) - richness(a) || b.tasks.length - a.tasks.length || a.id.localeCompare(b.id);
  const sample =
    library === 'transformers'
      ? ofLib.sort(
          (a, b) =>
            Number(!ownInfo(a)) - Number(!ownInfo(b)) ||
            Number(!a.transformersInfo) - Number(!b.transformersInfo) ||
            taskRank(a) - taskRank(b) ||
            byRichness(a, b),
        )[0]
      : ofLib.sort(byRichness)[0];
  if (!sample) return undefined;
  const { tasks: _t, widget: _w, ...record } = sample;
  const auto = transformersInfoForTask(sample.pipeline_tag);
  if (library === 'transformers' && !record.transformersInfo && auto) record.transformersInfo = auto;
  return record;
}
