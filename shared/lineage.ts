import type { LineageRelation } from './contract/hub-repo';

/** A base model this model derives from, and how (unknown when only `base_model` names it). */
interface BaseModelRef {
  id: string;
  relation?: LineageRelation;
}

const RELATIONS: readonly LineageRelation[] = ['finetune', 'adapter', 'merge', 'quantized'];
const ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/;

/** Hub ids compare without case (`Org/Model` and `org/model` are one repo). */
const sameRepo = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A model is never listed in its own tree: some cards name themselves as their base, and their tags follow. */
export function withoutSelf<T extends { id: string }>(models: readonly T[], self: string): T[] {
  return models.filter((m) => !sameRepo(m.id, self));
}

/**
 * The base models of a model: from the card's `base_model` (a string or a list) and the Hub's
 * `base_model:<relation>:<id>` tags, which also say how it derives; the model itself is left out when `self` is
 * given. Pure, for the model page and tests.
 */
export function baseModels(
  cardData: Record<string, unknown> | undefined,
  tags: readonly string[],
  self?: string,
): BaseModelRef[] {
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
  const all = [...out.values()];
  return self ? withoutSelf(all, self) : all;
}

/** How the page words a relation, as a heading over the models derived that way. */
export const derivedHeading: Record<LineageRelation, string> = {
  quantized: 'Quantizations of this model',
  finetune: 'Fine-tunes',
  adapter: 'Adapters',
  merge: 'Merges',
};
