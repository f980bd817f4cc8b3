import type { CatalogueModel } from '@shared/contract/catalogue';
import type { ModelRecord } from '@shared/model-record';

type TransformersInfo = NonNullable<ModelRecord['transformersInfo']>;

/**
 * The Auto classes transformers loads for a task's models (what the Hub's `transformersInfo` says of them). The
 * embedded catalogue has no `transformersInfo`, and without it the library's generator writes only "# ⚠️ Type of
 * model unknown": the library page's sample gets it from here, for a model of one of these tasks.
 */
const transformersAuto: Record<string, Omit<TransformersInfo, 'pipeline_tag'>> = {
  'text-generation': { auto_model: 'AutoModelForCausalLM', processor: 'AutoTokenizer' },
  'image-text-to-text': { auto_model: 'AutoModelForImageTextToText', processor: 'AutoProcessor' },
  'text-classification': { auto_model: 'AutoModelForSequenceClassification', processor: 'AutoTokenizer' },
  'token-classification': { auto_model: 'AutoModelForTokenClassification', processor: 'AutoTokenizer' },
  'fill-mask': { auto_model: 'AutoModelForMaskedLM', processor: 'AutoTokenizer' },
  'question-answering': { auto_model: 'AutoModelForQuestionAnswering', processor: 'AutoTokenizer' },
  'table-question-answering': { auto_model: 'AutoModelForTableQuestionAnswering', processor: 'AutoTokenizer' },
  summarization: { auto_model: 'AutoModelForSeq2SeqLM', processor: 'AutoTokenizer' },
  translation: { auto_model: 'AutoModelForSeq2SeqLM', processor: 'AutoTokenizer' },
  'feature-extraction': { auto_model: 'AutoModel', processor: 'AutoTokenizer' },
  'image-classification': { auto_model: 'AutoModelForImageClassification', processor: 'AutoImageProcessor' },
  'object-detection': { auto_model: 'AutoModelForObjectDetection', processor: 'AutoImageProcessor' },
  'video-classification': { auto_model: 'AutoModelForVideoClassification', processor: 'AutoImageProcessor' },
  'mask-generation': { auto_model: 'AutoModelForMaskGeneration', processor: 'AutoProcessor' },
  'automatic-speech-recognition': { auto_model: 'AutoModelForSpeechSeq2Seq', processor: 'AutoProcessor' },
};
const taskRank = (m: ModelRecord) => {
  const i = Object.keys(transformersAuto).indexOf(m.pipeline_tag ?? '');
  return i < 0 ? Infinity : i;
};

/** The richest record makes the best sample: generators read transformersInfo and config when they are there. */
const richness = (m: ModelRecord) => (m.transformersInfo ? 4 : 0) + (m.config ? 2 : 0) + (m.pipeline_tag ? 1 : 0);

/**
 * The embedded model a library's sample snippet is written for: for transformers, one whose class is known (its own
 * `transformersInfo`, else its task's), the commonest task first; for the others, the richest record.
 */
export function librarySampleModel(library: string, models: Iterable<CatalogueModel>): ModelRecord | undefined {
  const ofLib = [...models].filter((m) => m.library_name === library);
  const byRichness = (a: CatalogueModel, b: CatalogueModel) =>
    richness(b) - richness(a) || b.tasks.length - a.tasks.length || a.id.localeCompare(b.id);
  const sample =
    library === 'transformers'
      ? ofLib.sort(
          (a, b) =>
            Number(!a.transformersInfo) - Number(!b.transformersInfo) || taskRank(a) - taskRank(b) || byRichness(a, b),
        )[0]
      : ofLib.sort(byRichness)[0];
  if (!sample) return undefined;
  const { tasks: _t, widget: _w, ...record } = sample;
  const auto = sample.pipeline_tag ? transformersAuto[sample.pipeline_tag] : undefined;
  if (library === 'transformers' && !record.transformersInfo && auto)
    record.transformersInfo = { ...auto, pipeline_tag: sample.pipeline_tag };
  return record;
}
