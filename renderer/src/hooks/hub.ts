import { useEffect, useMemo, useState } from 'react';
import type { Output } from '@shared/contract';
import type { HubFreshness } from '@shared/contract/hub';
import type { LineageRelation, RepoKind, RepoLink } from '@shared/contract/hub-repo';
import { api } from '../api';
import type { AppError } from '@shared/errors';
import { afterPaint } from '../lib/after-paint';
import { AnswerCache, type AtHand } from '../lib/answer-cache';
import { useQuery } from './query';
import { useSettings } from '../store/settings';

/** A Hub answer as a page holds it: loading, the answer, "live access off and nothing cached", or an error. */
export type HubLive<T> =
  | { state: 'loading' }
  | ({ state: 'ok'; freshness: HubFreshness } & T)
  | { state: 'off' }
  | { state: 'error'; error: AppError };

const isHubOff = (e: unknown) =>
  ((e as AppError | undefined)?.details as { reason?: string } | undefined)?.reason === 'hub-off';

/**
 * Calls the Hub through main and tracks the answer; reloads when live access is switched. With access off,
 * main answers only from its cache and sends nothing.
 */
export function useHubLive<T extends { freshness: HubFreshness }>(
  fetcher: () => Promise<T>,
  deps: readonly unknown[],
  /** An answer already at hand (see AnswerCache.atHand), shown in the first render. */
  atHand?: () => AtHand<T> | undefined,
): { live: HubLive<Omit<T, 'freshness'>>; reload: () => void } {
  const hubOn = useSettings((s) => s.view?.values.hubAccess === 'online');
  const q = useQuery(fetcher, [...deps, hubOn], true, atHand);
  const data = q.state === 'ok' ? q.data : undefined;
  const error = q.state === 'error' ? q.error : undefined;
  // One object per answer, so pages can depend on it.
  const live = useMemo((): HubLive<Omit<T, 'freshness'>> => {
    if (data) return { state: 'ok', ...data };
    if (error) return isHubOff(error) ? { state: 'off' } : { state: 'error', error: error as AppError };
    return { state: 'loading' };
  }, [data, error]);
  return { live, reload: q.reload };
}

/** The Hub answers this window has seen or is waiting for: the last 48 kept. */
const answers = new AnswerCache(48);

/** A page's call for `key`: the one started ahead for it when there is one, else asked now. */
const claim = <T>(key: string, fn: () => Promise<T>): Promise<T> => answers.take<T>(key) ?? answers.ask(key, fn);

/** The Hub the app talks to (Settings, or HF_ENDPOINT), for links and card URLs. */
export function useHubEndpoint(): string {
  return useSettings((s) => s.view?.values.hubEndpoint) ?? 'https://huggingface.co';
}

/** The first page of a repo's file tree; `treePage` fetches the next ones. */
export const useHubTree = (kind: RepoKind, id: string) =>
  useHubLive(() => api.call('hub.tree', { kind, id }), [kind, id]);

export const treePage = (kind: RepoKind, id: string, cursor: string): Promise<Output<'hub.tree'>> =>
  api.call('hub.tree', { kind, id, cursor });

/** The key of a repo's card in the window's answers. */
const readmeKey = (kind: RepoKind, id: string) => `readme:${kind}:${id}`;

/** A repo's README: the call started ahead when the page asked for it early, else asked now. */
export const useHubReadme = (kind: RepoKind, id: string) =>
  useHubLive(
    () => claim(readmeKey(kind, id), () => api.call('hub.readme', { kind, id })),
    [kind, id],
    () => answers.atHand<Output<'hub.readme'>>(readmeKey(kind, id)),
  );

const modelKey = (id: string) => `model:${id}`;

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

/** A dataset's or a Space's details from the Hub (or main's cache): at hand, started ahead, or asked now. */
export const useHubRepo = (kind: Exclude<RepoKind, 'model'>, id: string) =>
  useHubLive(
    () => claim(repoKey(kind, id), () => api.call('hub.repo', { kind, id })),
    [kind, id],
    () => answers.atHand<Output<'hub.repo'>>(repoKey(kind, id)),
  );

export const LINEAGE_RELATIONS: LineageRelation[] = ['quantized', 'finetune', 'adapter', 'merge'];
export type Derived = Partial<Record<LineageRelation, { models: RepoLink[]; more: boolean }>>;
const derivedKey = (id: string, relation: LineageRelation) => `derived:${relation}:${id}`;

/** The lists of `id` this window has seen (shown at once, then asked again). */
function seenDerived(id: string): Derived {
  const out: Derived = {};
  for (const r of LINEAGE_RELATIONS) {
    const list = answers.last<Derived[LineageRelation]>(derivedKey(id, r));
    if (list) out[r] = list;
  }
  return out;
}

/**
 * The Hub repos derived from a model (quantizations, fine-tunes, adapters, merges), each list shown as it arrives.
 * Lists seen before in this window are shown in the first render; all four are asked once the page is painted (they
 * sit below the page's first screen). With live Hub access off and nothing cached, the lists are simply absent.
 */
export function useDerivedRepos(id: string): { derived: Derived; error?: AppError } {
  const [shown, setShown] = useState(() => ({
    id,
    derived: seenDerived(id),
    error: undefined as AppError | undefined,
  }));
  let current = shown;
  if (shown.id !== id) {
    current = { id, derived: seenDerived(id), error: undefined };
    setShown(current);
  }
  useEffect(() => {
    let stale = false;
    const cancel = afterPaint(() => {
      for (const relation of LINEAGE_RELATIONS)
        answers
          .ask(derivedKey(id, relation), () => api.call('hub.derived', { id, relation }))
          .then(
            (res) =>
              !stale &&
              setShown((s) =>
                s.id !== id || s.derived[relation] === res ? s : { ...s, derived: { ...s.derived, [relation]: res } },
              ),
            (e: unknown) =>
              !stale && !isHubOff(e) && setShown((s) => (s.id !== id ? s : { ...s, error: e as AppError })),
          );
    });
    return () => {
      stale = true;
      cancel();
    };
  }, [id]);
  return current;
}
