import type { ModelRecord } from './model-record';

type TransformersInfo = NonNullable<ModelRecord['transformersInfo']>;

/**
 * The Auto classes transformers loads for a task's models (what the Hub's `transformersInfo` says of them). The
 * embedded task data has no `transformersInfo`, and without it the library's generator writes only "# ⚠️ Type of
 * model unknown": the catalogue gives an embedded transformers model its task's classes (a live Hub record, when
 * it comes, brings the model's own).
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
  'keypoint-detection': { auto_model: 'AutoModelForKeypointDetection', processor: 'AutoImageProcessor' },
  'automatic-speech-recognition': { auto_model: 'AutoModelForSpeechSeq2Seq', processor: 'AutoProcessor' },
};

/** The tasks with known classes, commonest first (the library page's sample prefers the first). */
export const transformersTasks = Object.keys(transformersAuto);

/** The classes a transformers model of this task loads with, or undefined for a task without a known class. */
export function transformersInfoForTask(task: string | undefined): TransformersInfo | undefined {
  const auto = task ? transformersAuto[task] : undefined;
  return auto && { ...auto, pipeline_tag: task };
}

/** True when the record's classes are its task's defaults (given by the catalogue), not the model's own. */
export function isTaskDefaultInfo(m: Pick<ModelRecord, 'transformersInfo' | 'pipeline_tag'>): boolean {
  const auto = transformersInfoForTask(m.pipeline_tag);
  return !!auto && !!m.transformersInfo && JSON.stringify(m.transformersInfo) === JSON.stringify(auto);
}
