import type { LineageRelation } from './contract/hub-repo';

/** A base model this model derives from, and how (unknown when only `base_model` names it). */
interface BaseModelRef {
  id: string;
  relation?: LineageRelation;
}

const RELATIONS: readonly LineageRelation[] = ['finetune', 'adapter', 'merge', 'quantized'];
const ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/;

/**
 * The base models of a model: from the card's `base_model` (a string or a list) and the Hub's
 * `base_model:<relation>:<id>` tags, which also say how it derives. Pure, for the model page and tests.
 */
export function baseModels(cardData: Record<string, unknown> | undefined, tags: readonly string[]): BaseModelRef[] {
  const out = new Map<string, BaseModelRef>();
  for (const t of tags) {
    const m = /^base_model:(finetune|adapter|merge|quantized):(.+)$/.exec(t);
    if (m && ID.test(m[2])) out.set(m[2], { id: m[2], relation: m[1] as LineageRelation });
  }
  const raw = cardData?.base_model;
  const named = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.filter((x) => typeof x === 'string') : [];
  for (const id of named as string[]) {
    const clean = id.trim();
    if (ID.test(clean) && !out.has(clean)) {
      const relation = typeof cardData?.base_model_relation === 'string' ? cardData.base_model_relation : undefined;
      out.set(clean, {
        id: clean,
        ...(RELATIONS.includes(relation as LineageRelation) ? { relation: relation as LineageRelation } : {}),
      });
    }
  }
  return [...out.values()];
}

/** How the page words a relation, as a heading over the models derived that way. */
export const derivedHeading: Record<LineageRelation, string> = {
  quantized: 'Quantizations of this model',
  finetune: 'Fine-tunes',
  adapter: 'Adapters',
  merge: 'Merges',
};
