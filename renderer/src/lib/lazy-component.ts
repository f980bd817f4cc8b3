import { lazy, type ComponentType } from 'react';

/**
 * A component whose code loads on first use (`preload` starts it; navigation waits for it, see prepareRoutes) and
 * which renders without suspending once that code is in. React.lazy alone suspends on its first render even when the
 * module has long been loaded, and a Suspense fallback, once shown, holds the page back for React's fallback throttle
 * (300 ms) however soon its code arrives.
 */
export function lazyComponent<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): { Component: ComponentType<P>; preload: () => Promise<M> } {
  let loaded: M | undefined;
  let pending: Promise<M> | undefined;
  const preload = (): Promise<M> =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (e: unknown) => {
        pending = undefined; // a failed chunk load is tried again next time
        throw e;
      },
    ));
  const Component = lazy(() => {
    if (loaded === undefined) return preload().then((m) => ({ default: pick(m) }));
    const ready = { default: pick(loaded) };
    // A thenable that calls back at once: React.lazy reads it as resolved within this render.
    return { then: (ok: (m: typeof ready) => void) => ok(ready) } as unknown as Promise<typeof ready>;
  });
  return { Component: Component as unknown as ComponentType<P>, preload };
}
