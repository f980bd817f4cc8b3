import { useEffect, useMemo, useState } from 'react';
import type { Output } from '@shared/contract';
import type { HubFreshness } from '@shared/contract/hub';
import type { LineageRelation, RepoKind, RepoLink } from '@shared/contract/hub-repo';
import { api } from '../api';
import type { AppError } from '@shared/errors';
import { afterPaint } from '../lib/after-paint';
import { useQuery, type AtHand } from './query';
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
  /** An answer already at hand (see takeArrived), shown in the first render. */
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

interface Prefetch {
  promise: Promise<unknown>;
  /** Set when the answer has arrived, so a page can show it in its first render. */
  value?: unknown;
}
const prefetched = new Map<string, Prefetch>();

/**
 * The last Hub answers seen in this window, by key (oldest first): a page opened again renders them at once and
 * asks main behind them (stale-while-revalidate), as going back to a page on huggingface.co does.
 */
const seen = new Map<string, unknown>();
const SEEN_MAX = 48;
function remember(key: string, value: unknown): void {
  seen.delete(key);
  seen.set(key, value);
  if (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value!);
}

/** Whether two answers (plain JSON data) are the same. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k as keyof typeof a], b[k as keyof typeof b]));
}

const inFlight = new Map<string, Promise<unknown>>();

/**
 * Asks main and remembers the answer under `key`; a call for a key already on its way joins it (a page's load and
 * the prefetch on its address change may come in either order). An answer equal to the one seen before is that
 * same object, so a page revalidating what it shows does not render again.
 */
function ask<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const running = inFlight.get(key);
  if (running) return running as Promise<T>;
  const call = fn()
    .then((v) => {
      const before = seen.get(key) as T | undefined;
      const kept = before !== undefined && sameJson(before, v) ? before : v;
      remember(key, kept);
      return kept;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, call);
  return call;
}

/**
 * Starts a Hub call before the component that shows it mounts (a page's card while its details load; a model
 * page's calls as soon as its address is set), so requests run side by side and early. One call per key until it
 * is claimed; unclaimed answers are dropped after 10 s.
 */
export function prefetchHub(key: string, fn: () => Promise<unknown>): void {
  if (prefetched.has(key)) return;
  const entry: Prefetch = { promise: ask(key, fn) };
  entry.promise.then(
    (v) => (entry.value = v),
    () => undefined,
  );
  prefetched.set(key, entry);
  setTimeout(() => prefetched.get(key) === entry && prefetched.delete(key), 10_000);
}

/** The prefetched call for `key`, once (a reload asks again). */
export function takePrefetched<T>(key: string): Promise<T> | undefined {
  const p = prefetched.get(key);
  prefetched.delete(key);
  return p?.promise as Promise<T> | undefined;
}

/**
 * An answer for `key` to render without a loading step: the prefetch's if it has arrived (fresh, taken once), else
 * the last one seen in this window (stale: the page asks again behind it).
 */
export function takeArrived<T>(key: string): AtHand<T> | undefined {
  const p = prefetched.get(key);
  if (p && p.value !== undefined) {
    prefetched.delete(key);
    return { data: p.value as T, stale: false };
  }
  return seen.has(key) ? { data: seen.get(key) as T, stale: true } : undefined;
}

/** The Hub the app talks to (Settings, or HF_ENDPOINT), for links and card URLs. */
export function useHubEndpoint(): string {
  return useSettings((s) => s.view?.values.hubEndpoint) ?? 'https://huggingface.co';
}

/** A dataset's or a Space's details from the Hub (or main's cache). */
export const useHubRepo = (kind: Exclude<RepoKind, 'model'>, id: string) =>
  useHubLive(() => api.call('hub.repo', { kind, id }), [kind, id]);

/** The first page of a repo's file tree; `treePage` fetches the next ones. */
export const useHubTree = (kind: RepoKind, id: string) =>
  useHubLive(() => api.call('hub.tree', { kind, id }), [kind, id]);

export const treePage = (kind: RepoKind, id: string, cursor: string): Promise<Output<'hub.tree'>> =>
  api.call('hub.tree', { kind, id, cursor });

/** The key under which a page prefetches its card (see prefetchHub). */
const readmeKey = (kind: RepoKind, id: string) => `readme:${kind}:${id}`;

/** A repo's README: the prefetched answer when the page asked for it early, else asked now. */
export const useHubReadme = (kind: RepoKind, id: string) =>
  useHubLive(
    () =>
      takePrefetched<Output<'hub.readme'>>(readmeKey(kind, id)) ??
      ask(readmeKey(kind, id), () => api.call('hub.readme', { kind, id })),
    [kind, id],
    () => takeArrived<Output<'hub.readme'>>(readmeKey(kind, id)),
  );

const modelKey = (id: string) => `model:${id}`;

/** Starts a repo's card call early (a page asks for its details and its card side by side). */
export const prefetchReadme = (kind: RepoKind, id: string) =>
  prefetchHub(readmeKey(kind, id), () => api.call('hub.readme', { kind, id }));

/**
 * Starts a model page's Hub calls (details and card) before the page renders. A page seen before in this window
 * renders what it saw and asks again once painted (useQuery), so nothing is sent ahead of its first frame.
 */
export function prefetchModel(id: string): void {
  if (seen.has(modelKey(id))) return;
  prefetchHub(modelKey(id), () => api.call('hub.model', { id }));
  prefetchReadme('model', id);
}

/** A model's Hub details: the prefetched call when there is one, else asked now. */
export const hubModel = (id: string): Promise<Output<'hub.model'>> =>
  takePrefetched<Output<'hub.model'>>(modelKey(id)) ?? ask(modelKey(id), () => api.call('hub.model', { id }));

/** A model's Hub details at hand for the page's first render (see takeArrived). */
export const arrivedModel = (id: string) => takeArrived<Output<'hub.model'>>(modelKey(id));

export const LINEAGE_RELATIONS: LineageRelation[] = ['quantized', 'finetune', 'adapter', 'merge'];
export type Derived = Partial<Record<LineageRelation, { models: RepoLink[]; more: boolean }>>;
const derivedKey = (id: string, relation: LineageRelation) => `derived:${relation}:${id}`;

/** The lists of `id` this window has seen (shown at once, then asked again). */
function seenDerived(id: string): Derived {
  const out: Derived = {};
  for (const r of LINEAGE_RELATIONS)
    if (seen.has(derivedKey(id, r))) out[r] = seen.get(derivedKey(id, r)) as Derived[LineageRelation];
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
        ask(derivedKey(id, relation), () => api.call('hub.derived', { id, relation })).then(
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
