import { useCallback, useEffect, useState } from 'react';
import type { HubFreshness } from '@shared/contract/hub';
import type { AppError } from '@shared/errors';
import { useSettings } from '../../store/settings';

/** A Hub answer as a page holds it: loading, the answer, "live access off and nothing cached", or an error. */
export type HubLive<T> =
  | { state: 'loading' }
  | ({ state: 'ok'; freshness: HubFreshness } & T)
  | { state: 'off' }
  | { state: 'error'; error: AppError };

export const isHubOff = (e: unknown) =>
  ((e as AppError | undefined)?.details as { reason?: string } | undefined)?.reason === 'hub-off';

/**
 * Calls the Hub through main and tracks the answer; reloads when live access is switched. With access off,
 * main answers only from its cache and sends nothing.
 */
export function useHubLive<T extends { freshness: HubFreshness }>(
  fetcher: () => Promise<T>,
  deps: readonly unknown[],
): { live: HubLive<Omit<T, 'freshness'>>; reload: () => void } {
  const hubOn = useSettings((s) => s.view?.values.hubAccess === 'online');
  const [live, setLive] = useState<HubLive<Omit<T, 'freshness'>>>({ state: 'loading' });
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const load = useCallback(fetcher, deps);
  const reload = useCallback(() => {
    let stale = false;
    setLive({ state: 'loading' });
    load().then(
      (res) => !stale && setLive({ state: 'ok', ...res }),
      (e: unknown) => !stale && setLive(isHubOff(e) ? { state: 'off' } : { state: 'error', error: e as AppError }),
    );
    return () => {
      stale = true;
    };
  }, [load]);
  useEffect(() => reload(), [reload, hubOn]);
  return { live, reload: () => void reload() };
}

const prefetched = new Map<string, Promise<unknown>>();

/**
 * Starts a Hub call before the component that shows it mounts (a page's card while its details load), so the
 * two requests run side by side instead of one after the other. Unclaimed answers are dropped after 10 s.
 */
export function prefetchHub(key: string, fn: () => Promise<unknown>): void {
  const p = fn();
  p.catch(() => undefined);
  prefetched.set(key, p);
  setTimeout(() => prefetched.get(key) === p && prefetched.delete(key), 10_000);
}

/** The prefetched call for `key`, once (a reload asks again). */
export function takePrefetched<T>(key: string): Promise<T> | undefined {
  const p = prefetched.get(key);
  prefetched.delete(key);
  return p as Promise<T> | undefined;
}

/** The Hub the app talks to (Settings, or HF_ENDPOINT), for links and card URLs. */
export function useHubEndpoint(): string {
  return useSettings((s) => s.view?.values.hubEndpoint) ?? 'https://huggingface.co';
}
