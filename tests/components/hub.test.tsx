// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubFreshness } from '@shared/contract/hub';
import { useDerivedRepos, useHubLive } from '../../renderer/src/hooks/hub';
import { arrivedModel, hubModel, prefetchModel } from '../../renderer/src/store/hub-answers';

afterEach(cleanup);
const freshness: HubFreshness = { source: 'cache', fetchedAt: '2026-11-23T10:00:00.000Z' };

describe('hooks/hub: Hub answers asked for before the page that shows them renders', () => {
  it("a page's own call and the prefetch on its address change join one call to main, in either order", async () => {
    const { api } = await import('../../renderer/src/api');
    const answers = new Map<string, (v: unknown) => void>();
    const call = vi
      .spyOn(api, 'call')
      .mockImplementation((name) => new Promise((r) => answers.set(name, r as (v: unknown) => void)));
    try {
      const mine = hubModel('org/joined'); // the page's load first…
      prefetchModel('org/joined'); // …then the address change's prefetch
      expect(call.mock.calls.filter(([name]) => name === 'hub.model')).toHaveLength(1);
      answers.get('hub.model')!({ model: { id: 'org/joined' }, quants: [], freshness });
      await expect(mine).resolves.toMatchObject({ model: { id: 'org/joined' } });
      // The prefetch's answer is claimed once by the next load; after that, a load asks main again.
      await expect(hubModel('org/joined')).resolves.toMatchObject({ model: { id: 'org/joined' } });
      expect(call.mock.calls.filter(([name]) => name === 'hub.model')).toHaveLength(1);
      void hubModel('org/joined').catch(() => undefined);
      expect(call.mock.calls.filter(([name]) => name === 'hub.model')).toHaveLength(2);
    } finally {
      call.mockRestore();
    }
  });

  it('a stale answer is shown at once and replaced by the revalidated one; a failed revalidation keeps it', async () => {
    let answer: (v: { markdown: string; freshness: HubFreshness }) => void = () => undefined;
    const fetcher = vi.fn(() => new Promise<{ markdown: string; freshness: HubFreshness }>((r) => (answer = r)));
    const stale = () => ({ data: { markdown: 'seen before', freshness }, stale: true });
    const { result } = renderHook(() => useHubLive(fetcher, ['x'], stale));
    expect(result.current.live).toMatchObject({ state: 'ok', markdown: 'seen before' });
    await vi.waitFor(() => expect(fetcher).toHaveBeenCalledTimes(1));
    expect(result.current.live).toMatchObject({ state: 'ok', markdown: 'seen before' }); // no loading step
    answer({ markdown: 'now', freshness });
    await vi.waitFor(() => expect(result.current.live).toMatchObject({ state: 'ok', markdown: 'now' }));

    const failing = vi.fn(async () => Promise.reject({ code: 'network', message: 'Hub down' }));
    const other = renderHook(() => useHubLive(failing, ['y'], stale));
    await vi.waitFor(() => expect(failing).toHaveBeenCalledTimes(1));
    await act(() => (failing.mock.results[0].value as Promise<unknown>).catch(() => undefined));
    expect(other.result.current.live).toMatchObject({ state: 'ok', markdown: 'seen before' });
  });

  it('useHubLive shows a fresh arrived answer in its first render and does not ask again', () => {
    const fetcher = vi.fn(async () => ({ markdown: 'asked', freshness }));
    const arrived = () => ({ data: { markdown: 'arrived', freshness }, stale: false });
    const { result } = renderHook(() => useHubLive(fetcher, ['x'], arrived));
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

  it('a stale answer is asked again only after the page that shows it is painted', async () => {
    const fetcher = vi.fn(async () => ({ markdown: 'now', freshness }));
    const stale = () => ({ data: { markdown: 'seen before', freshness }, stale: true });
    const { result } = renderHook(() => useHubLive(fetcher, ['painted-first'], stale));
    // Mounted and its effects run: the call waits for the next frame.
    expect(fetcher).not.toHaveBeenCalled();
    expect(result.current.live).toMatchObject({ state: 'ok', markdown: 'seen before' });
    await vi.waitFor(() => expect(result.current.live).toMatchObject({ state: 'ok', markdown: 'now' }));
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('an answer equal to the one seen before is that same object, and a page showing it does not render again', async () => {
    const { api } = await import('../../renderer/src/api');
    let version = 1;
    const call = vi
      .spyOn(api, 'call')
      .mockImplementation(async () => ({ model: { id: 'org/same', tags: [], v: version }, quants: [], freshness }));
    try {
      const first = await hubModel('org/same');
      const again = await hubModel('org/same');
      expect(again).toBe(first); // a new object from main, equal: the one already held
      let renders = 0;
      const { result } = renderHook(() => {
        renders++;
        return useHubLive(
          () => hubModel('org/same'),
          ['org/same'],
          () => arrivedModel('org/same'),
        );
      });
      expect(result.current.live).toMatchObject({ state: 'ok', model: { v: 1 } });
      await vi.waitFor(() => expect(call).toHaveBeenCalledTimes(3)); // revalidated once painted…
      await act(() => call.mock.results[2].value as Promise<unknown>);
      expect(renders).toBe(1); // …and the unchanged answer rendered nothing
      version = 2;
      result.current.reload();
      await vi.waitFor(() => expect(result.current.live).toMatchObject({ state: 'ok', model: { v: 2 } }));
    } finally {
      call.mockRestore();
    }
  });

  it('derived lists seen before in the window are shown in the first render, then asked again; errors show', async () => {
    const { api } = await import('../../renderer/src/api');
    const answer = { models: [{ id: 'org/base-GGUF', downloads: 5 }], more: false, freshness };
    const call = vi.spyOn(api, 'call').mockImplementation(async (name, input) => {
      const { relation } = input as { relation: string };
      if (relation === 'merge') throw { code: 'network', message: 'Hub down' };
      return relation === 'quantized' ? answer : { models: [], more: false, freshness };
    });
    try {
      const first = renderHook(() => useDerivedRepos('org/base'));
      expect(first.result.current.derived).toEqual({}); // nothing seen yet, and nothing asked before the paint
      expect(call).not.toHaveBeenCalled();
      await vi.waitFor(() => expect(first.result.current.derived.quantized).toEqual(answer));
      await vi.waitFor(() => expect(first.result.current.error?.message).toBe('Hub down'));
      first.unmount();

      const again = renderHook(() => useDerivedRepos('org/base'));
      expect(again.result.current.derived.quantized).toEqual(answer);
      expect(again.result.current.error).toBeUndefined();
      await vi.waitFor(() => expect(call).toHaveBeenCalledTimes(8));
      expect(call.mock.calls.every(([name]) => name === 'hub.derived')).toBe(true);
    } finally {
      call.mockRestore();
    }
  });
});
