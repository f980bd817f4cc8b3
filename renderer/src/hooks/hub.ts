import { useEffect, useMemo, useState } from 'react';
import type { HubFreshness } from '@shared/contract/hub';
import type { RepoKind } from '@shared/contract/hub-repo';
import { api } from '../api';
import type { AppError } from '@shared/errors';
import { isHubOff } from '@shared/hub-off';
import { afterPaint } from '../lib/after-paint';
import type { AtHand } from '../lib/answer-cache';
import {
  arrivedModel,
  arrivedReadme,
  arrivedRepo,
  derivedList,
  hubModel,
  hubReadme,
  hubRepo,
  LINEAGE_RELATIONS,
  prefetchReadme,
  seenDerived,
  type Derived,
} from '../store/hub-answers';
import { useAction, useQuery } from './query';
import { useSettings } from '../store/settings';

/** A Hub answer as a page holds it: loading, the answer, "live access off and nothing cached", or an error. */
export type HubLive<T> =
  | { state: 'loading' }
  | ({ state: 'ok'; freshness: HubFreshness } & T)
  | { state: 'off' }
  | { state: 'error'; error: AppError };

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

/** The Hub the app talks to (Settings, or HF_ENDPOINT), for links and card URLs. */
export function useHubEndpoint(): string {
  return useSettings((s) => s.view?.values.hubEndpoint) ?? 'https://huggingface.co';
}

/** The first page of a repo's file tree; `useHubTreePage` fetches the next ones. */
export const useHubTree = (kind: RepoKind, id: string) =>
  useHubLive(() => api.call('hub.tree', { kind, id }), [kind, id]);

/** The next page of a repo's file tree, from the cursor of the last one ("Load more"). */
export const useHubTreePage = (kind: RepoKind, id: string) =>
  useAction((cursor: string) => api.call('hub.tree', { kind, id, cursor }));

/** A repo's README: the call started ahead when the page asked for it early, else asked now. */
export const useHubReadme = (kind: RepoKind, id: string) =>
  useHubLive(
    () => hubReadme(kind, id),
    [kind, id],
    () => arrivedReadme(kind, id),
  );

/**
 * A model's Hub details: at hand (a prefetch that arrived while the address changed, or seen earlier in this window)
 * in the first render, stale ones asked again behind them. The card is asked for at the same time, not after them.
 */
export const useHubModel = (id: string) =>
  useHubLive(
    () => {
      prefetchReadme('model', id);
      return hubModel(id);
    },
    [id],
    () => arrivedModel(id),
  );

/** A dataset's or a Space's details from the Hub (or main's cache): at hand, started ahead, or asked now. */
export const useHubRepo = (kind: Exclude<RepoKind, 'model'>, id: string) =>
  useHubLive(
    () => hubRepo(kind, id),
    [kind, id],
    () => arrivedRepo(kind, id),
  );

/** A library's most downloaded Hub models (Library page); from main's cache when live access is off. */
export const useTopHubModels = (library: string, limit: number) =>
  useHubLive(() => api.call('hub.search', { kind: 'models', library, sort: 'downloads', limit }), [library, limit]);

/** The Hub's trending GGUF models (the online start page's "Runs on this machine"). */
export const useTrendingGguf = (limit: number) =>
  useHubLive(() => api.call('hub.search', { kind: 'models', runsLocally: 'gguf', sort: 'trending', limit }), [limit]);

/** The Hub's trending MLX models ("Runs on this machine" on Apple Silicon). */
export const useTrendingMlx = (limit: number) =>
  useHubLive(() => api.call('hub.search', { kind: 'models', runsLocally: 'mlx', sort: 'trending', limit }), [limit]);

/** A model's Hub details without its card (a list row needs the quants, not the README); shared with its page. */
export const useHubModelFacts = (id: string) =>
  useHubLive(
    () => hubModel(id),
    [id],
    () => arrivedModel(id),
  );

/**
 * The Hub repos derived from a model (quantizations, fine-tunes, adapters, merges), each list shown as it arrives.
 * Lists seen before in this window are shown in the first render; all four are asked once the page is painted (they
 * sit below the page's first screen). With live Hub access off and nothing cached, the lists are simply absent.
 */
// Stays off useQuery: three lists shown each as it comes over the seen ones, Hub-off failures ignored, not one answer.
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
        derivedList(id, relation).then(
          (res) =>
            !stale &&
            setShown((s) =>
              s.id !== id || s.derived[relation] === res ? s : { ...s, derived: { ...s.derived, [relation]: res } },
            ),
          (e: unknown) => !stale && !isHubOff(e) && setShown((s) => (s.id !== id ? s : { ...s, error: e as AppError })),
        );
    });
    return () => {
      stale = true;
      cancel();
    };
  }, [id]);
  return current;
}
