import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppErrorShape } from '@shared/errors';
import { afterPaint } from '../lib/after-paint';
import type { AtHand } from '../lib/answer-cache';

/** What a screen shows of one answer from main: loading, the answer, or the error (with Retry). */
export type Query<T> =
  | { state: 'loading'; reload(): void }
  | { state: 'ok'; data: T; reload(): void }
  | { state: 'error'; error: AppErrorShape; reload(): void };

type Shown<T> = ({ state: 'loading' } | { state: 'ok'; data: T } | { state: 'error'; error: AppErrorShape }) & {
  /** The latest answer received (for any inputs), kept through a later error or reload. */
  last?: T;
};

const sameDeps = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((d, i) => Object.is(d, b[i]));

/**
 * The one way a component waits for main: runs `fetch` when `deps` change (never with `enabled` false), drops
 * answers that arrive after a newer request, and keeps the last error for the screen's error state.
 * `reload` goes back to loading; `revalidate` asks again with the answer or error left on screen until the new one
 * comes (for polls and retries), and resolves once it has. With `keep`, a change of `deps` revalidates too.
 */
export function useQuery<T>(
  fetch: () => Promise<T>,
  deps: readonly unknown[],
  enabled = true,
  /** An answer already at hand, shown in the first render (a fresh one is not asked again). */
  atHand?: () => AtHand<T> | undefined,
  keep = false,
): Query<T> & { revalidate(): Promise<void>; last?: T } {
  const [first] = useState(() => atHand?.());
  const [state, setState] = useState<Shown<T>>(() =>
    first ? { state: 'ok', data: first.data, last: first.data } : { state: 'loading' },
  );
  const skipFirst = useRef(first?.stale === false);
  // The inputs the stale answer was shown for: it is asked again for them, and kept on screen meanwhile.
  const staleFor = useRef(first?.stale === true ? deps : undefined);
  const seq = useRef(0);
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;
  // `keep`: the shown state stays until the answer; `showError`: a failure replaces it (a stale answer's does not).
  const ask = useCallback((keep: boolean, showError = !keep) => {
    const mine = ++seq.current;
    if (!keep) setState((s) => ({ state: 'loading', last: s.last }));
    return fetchRef.current().then(
      // The very answer already shown (an unchanged revalidation, see hooks/hub.ts) renders nothing.
      (data) => {
        if (mine === seq.current)
          setState((s) => (s.state === 'ok' && s.data === data ? s : { state: 'ok', data, last: data }));
      },
      (error: AppErrorShape) => {
        if (mine === seq.current && showError) setState((s) => ({ state: 'error', error, last: s.last }));
      },
    );
  }, []);
  const reload = useCallback(() => void ask(false), [ask]);
  const revalidate = useCallback(() => ask(true, true), [ask]);
  useEffect(() => {
    let cancel: (() => void) | undefined;
    if (skipFirst.current) skipFirst.current = false;
    else if (enabled && staleFor.current && sameDeps(staleFor.current, deps))
      // Asked again once the stale answer is painted: the page's first frame does not wait for the call.
      cancel = afterPaint(() => {
        staleFor.current = undefined;
        void ask(true);
      });
    else if (enabled) void ask(keep, true);
    // An answer that arrives after the inputs changed (or the component left) is dropped.
    return () => {
      cancel?.();
      seq.current += 1;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, ask, ...deps]);
  return { ...state, reload, revalidate };
}

/** A call a user starts (save, approve, open): `run` resolves with the answer, `busy` and `error` for the screen. */
export function useAction<A extends unknown[], T>(
  fn: (...args: A) => Promise<T>,
): { run: (...args: A) => Promise<T | undefined>; busy: boolean; error?: AppErrorShape; clear(): void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppErrorShape>();
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const run = useCallback(async (...args: A) => {
    setBusy(true);
    setError(undefined);
    try {
      return await fnRef.current(...args);
    } catch (e) {
      setError(e as AppErrorShape);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error, clear: () => setError(undefined) };
}
