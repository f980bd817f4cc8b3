// @vitest-environment jsdom
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubFreshness } from '@shared/contract/hub';
import { prefetchHub, takeArrived, takePrefetched, useHubLive } from '../../renderer/src/hooks/hub';

afterEach(cleanup);
const freshness: HubFreshness = { source: 'cache', fetchedAt: '2026-11-23T10:00:00.000Z' };

describe('hooks/hub: Hub answers asked for before the page that shows them renders', () => {
  it('one call per key until claimed; an arrived answer can be taken for the first render, once', async () => {
    const fn = vi.fn(async () => ({ markdown: '# Hi', freshness }));
    prefetchHub('readme:model:a/b', fn);
    prefetchHub('readme:model:a/b', fn);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(takeArrived('readme:model:a/b')).toBeUndefined(); // not arrived yet: the page shows loading
    await Promise.resolve();
    await Promise.resolve();
    expect(takeArrived('readme:model:a/b')).toEqual({ markdown: '# Hi', freshness });
    expect(takeArrived('readme:model:a/b')).toBeUndefined();
    expect(takePrefetched('readme:model:a/b')).toBeUndefined();
  });

  it('useHubLive shows an arrived answer in its first render and does not ask again', () => {
    const fetcher = vi.fn(async () => ({ markdown: 'asked', freshness }));
    const { result } = renderHook(() => useHubLive(fetcher, ['x'], () => ({ markdown: 'arrived', freshness })));
    expect(result.current.live).toEqual({ state: 'ok', markdown: 'arrived', freshness });
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('without one it loads, and a reload asks again', async () => {
    const fetcher = vi.fn(async () => ({ markdown: 'asked', freshness }));
    const { result, rerender } = renderHook(() => useHubLive(fetcher, ['x']));
    expect(result.current.live.state).toBe('loading');
    await vi.waitFor(() => expect(result.current.live).toMatchObject({ state: 'ok', markdown: 'asked' }));
    result.current.reload();
    rerender();
    await vi.waitFor(() => expect(fetcher).toHaveBeenCalledTimes(2));
  });
});
