// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppErrorShape } from '@shared/errors';
import { useQuery } from '../../renderer/src/hooks/query';

/** Each fetch waits until the test settles it, so answers can arrive in any order. */
function held<T>() {
  const calls: { resolve(v: T): void; reject(e: AppErrorShape): void }[] = [];
  const fetch = () => new Promise<T>((resolve, reject) => calls.push({ resolve, reject }));
  const settle = async (i: number, f: (c: (typeof calls)[number]) => void) => {
    await act(async () => {
      f(calls[i]!);
      await Promise.resolve();
    });
  };
  return { calls, fetch, settle };
}

const failure: AppErrorShape = { code: 'unavailable', message: 'down' };

afterEach(cleanup);

describe('useQuery revalidate: asks again with the last answer or error on screen', () => {
  it('never passes through loading, and shows the new answer or error', async () => {
    const m = held<string>();
    const seen: string[] = [];
    const { result } = renderHook(() => {
      const q = useQuery(m.fetch, []);
      seen.push(q.state);
      return q;
    });
    await m.settle(0, (c) => c.resolve('one'));
    expect(result.current).toMatchObject({ state: 'ok', data: 'one' });
    seen.length = 0;
    act(() => void result.current.revalidate());
    expect(m.calls).toHaveLength(2);
    await m.settle(1, (c) => c.reject(failure));
    expect(result.current).toMatchObject({ state: 'error', error: failure, last: 'one' });
    act(() => void result.current.revalidate());
    await m.settle(2, (c) => c.resolve('two'));
    expect(result.current).toMatchObject({ state: 'ok', data: 'two', last: 'two' });
    expect(seen).not.toContain('loading');
  });

  it('a late answer never replaces a newer one', async () => {
    const m = held<string>();
    const { result } = renderHook(() => useQuery(m.fetch, []));
    await m.settle(0, (c) => c.resolve('first'));
    act(() => void result.current.revalidate());
    act(() => void result.current.revalidate());
    await m.settle(2, (c) => c.resolve('newer'));
    await m.settle(1, (c) => c.resolve('older'));
    expect(result.current).toMatchObject({ state: 'ok', data: 'newer' });
    act(() => void result.current.revalidate());
    act(() => void result.current.revalidate());
    await m.settle(4, (c) => c.resolve('newest'));
    await m.settle(3, (c) => c.reject(failure));
    expect(result.current).toMatchObject({ state: 'ok', data: 'newest' });
  });

  it('with keep, a change of inputs asks again without going back to loading', async () => {
    const m = held<string>();
    const seen: string[] = [];
    const { result, rerender } = renderHook(
      ({ n }: { n: number }) => {
        const q = useQuery(m.fetch, [n], true, undefined, true);
        seen.push(q.state);
        return q;
      },
      { initialProps: { n: 1 } },
    );
    await m.settle(0, (c) => c.reject(failure));
    seen.length = 0;
    rerender({ n: 2 });
    expect(result.current).toMatchObject({ state: 'error', error: failure });
    await m.settle(1, (c) => c.resolve('two'));
    rerender({ n: 3 });
    await m.settle(2, (c) => c.reject(failure));
    expect(result.current).toMatchObject({ state: 'error', error: failure, last: 'two' });
    expect(seen).not.toContain('loading');
  });

  it('without keep, a change of inputs still shows loading (the default is unchanged)', async () => {
    const m = held<string>();
    const { result, rerender } = renderHook(({ n }: { n: number }) => useQuery(m.fetch, [n]), {
      initialProps: { n: 1 },
    });
    await m.settle(0, (c) => c.resolve('one'));
    rerender({ n: 2 });
    expect(result.current.state).toBe('loading');
    await m.settle(1, (c) => c.reject(failure));
    expect(result.current).toMatchObject({ state: 'error', error: failure, last: 'one' });
  });
});
