import type { Output } from '@shared/contract';
import type { LineageRelation, RepoKind, RepoLink } from '@shared/contract/hub-repo';
import { api } from '../api';
import { AnswerCache } from '../lib/answer-cache';

/**
 * The Hub answers this window has seen or is waiting for (the last 48 kept): a repo page's calls can start before
 * the page renders (the address change's route preparer), and a page seen before renders its last answer at once.
 * The hooks of hooks/hub.ts read them; the catalogue's route preparer starts them.
 */
const answers = new AnswerCache(48);

/** A page's call for `key`: the one started ahead for it when there is one, else asked now. */
const claim = <T>(key: string, fn: () => Promise<T>): Promise<T> => answers.take<T>(key) ?? answers.ask(key, fn);

/** The key of a repo's card in the window's answers. */
const readmeKey = (kind: RepoKind, id: string) => `readme:${kind}:${id}`;

/** A repo's README: the call started ahead when the page asked for it early, else asked now. */
export const hubReadme = (kind: RepoKind, id: string) =>
  claim(readmeKey(kind, id), () => api.call('hub.readme', { kind, id }));

export const arrivedReadme = (kind: RepoKind, id: string) => answers.atHand<Output<'hub.readme'>>(readmeKey(kind, id));

/** Starts a repo's card call early (a page asks for its details and its card side by side). */
export const prefetchReadme = (kind: RepoKind, id: string) =>
  answers.ahead(readmeKey(kind, id), () => api.call('hub.readme', { kind, id }));

/**
 * Starts a repo page's Hub calls (its details under `key`, and its card) before the page renders, and returns them
 * settled. A page seen before in this window renders what it saw and asks again once painted (useQuery), so nothing
 * is sent ahead of its first frame: undefined.
 */
function prefetchPage(key: string, details: () => Promise<unknown>, kind: RepoKind, id: string) {
  if (answers.last(key) !== undefined) return undefined;
  return Promise.allSettled([answers.ahead(key, details), prefetchReadme(kind, id)]);
}

const modelKey = (id: string) => `model:${id}`;

/** A model page's Hub calls (see prefetchPage). */
export const prefetchModel = (id: string): Promise<unknown> | undefined =>
  prefetchPage(modelKey(id), () => api.call('hub.model', { id }), 'model', id);

/** A model's Hub details: the call started ahead when there is one, else asked now. */
export const hubModel = (id: string): Promise<Output<'hub.model'>> =>
  claim(modelKey(id), () => api.call('hub.model', { id }));

/** A model's Hub details at hand for the page's first render. */
export const arrivedModel = (id: string) => answers.atHand<Output<'hub.model'>>(modelKey(id));

const repoKey = (kind: RepoKind, id: string) => `repo:${kind}:${id}`;

/** A dataset's or a Space's page calls (see prefetchPage). */
export const prefetchRepo = (kind: Exclude<RepoKind, 'model'>, id: string): Promise<unknown> | undefined =>
  prefetchPage(repoKey(kind, id), () => api.call('hub.repo', { kind, id }), kind, id);

/** A dataset's or a Space's details from the Hub (or main's cache): started ahead, or asked now. */
export const hubRepo = (kind: Exclude<RepoKind, 'model'>, id: string) =>
  claim(repoKey(kind, id), () => api.call('hub.repo', { kind, id }));

export const arrivedRepo = (kind: Exclude<RepoKind, 'model'>, id: string) =>
  answers.atHand<Output<'hub.repo'>>(repoKey(kind, id));

/** The lineage lists of a model, in the order a model page shows them. */
export const LINEAGE_RELATIONS: LineageRelation[] = ['quantized', 'finetune', 'adapter', 'merge'];
export type Derived = Partial<Record<LineageRelation, { models: RepoLink[]; more: boolean }>>;
const derivedKey = (id: string, relation: LineageRelation) => `derived:${relation}:${id}`;

/** The lists of `id` this window has seen (shown at once, then asked again). */
export function seenDerived(id: string): Derived {
  const out: Derived = {};
  for (const r of LINEAGE_RELATIONS) {
    const list = answers.last<Derived[LineageRelation]>(derivedKey(id, r));
    if (list) out[r] = list;
  }
  return out;
}

/** One lineage list of `id`, asked now (joining a call on its way), kept for the next visit. */
export const derivedList = (id: string, relation: LineageRelation) =>
  answers.ask(derivedKey(id, relation), () => api.call('hub.derived', { id, relation }));
