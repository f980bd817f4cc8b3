import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerCache, sameJson } from '../../renderer/src/lib/answer-cache';

/** A call whose answer the test gives, and how many times it was made. */
function deferred<T>() {
  const resolves: ((v: T) => void)[] = [];
  const rejects: ((e: unknown) => void)[] = [];
  const fn = vi.fn(() => new Promise<T>((ok, fail) => (resolves.push(ok), rejects.push(fail))));
  return { fn, answer: (v: T) => resolves.at(-1)!(v), fail: (e: unknown) => rejects.at(-1)!(e) };
}

afterEach(() => vi.useRealTimers());

describe('AnswerCache: a window’s answers from main by key', () => {
  it('a call started ahead is made once until claimed; its arrived answer is fresh once, then the last one seen', async () => {
    const cache = new AnswerCache(8);
    const d = deferred<{ markdown: string }>();
    cache.ahead('readme:a', d.fn);
    cache.ahead('readme:a', d.fn);
    expect(d.fn).toHaveBeenCalledTimes(1);
    expect(cache.atHand('readme:a')).toBeUndefined(); // not arrived: the page shows loading
    d.answer({ markdown: '# Hi' });
    await vi.waitFor(() => expect(cache.atHand('readme:a')).toEqual({ data: { markdown: '# Hi' }, stale: false }));
    expect(cache.take('readme:a')).toBeUndefined(); // claimed by atHand
    expect(cache.atHand('readme:a')).toEqual({ data: { markdown: '# Hi' }, stale: true });
    expect(cache.atHand('readme:b')).toBeUndefined();
  });

  it('take claims the call started ahead once; a later ask goes to main again', async () => {
    const cache = new AnswerCache(8);
    const d = deferred<number>();
    cache.ahead('k', d.fn);
    const taken = cache.take<number>('k');
    expect(cache.take('k')).toBeUndefined();
    d.answer(1);
    await expect(taken).resolves.toBe(1);
    void cache.ask('k', d.fn);
    expect(d.fn).toHaveBeenCalledTimes(2);
  });

  it('asks for a key on its way join one call, in either order with the one started ahead', async () => {
    const cache = new AnswerCache(8);
    const d = deferred<string>();
    const mine = cache.ask('k', d.fn);
    cache.ahead('k', d.fn);
    expect(d.fn).toHaveBeenCalledTimes(1);
    d.answer('v');
    await expect(mine).resolves.toBe('v');
    await expect(cache.take('k')).resolves.toBe('v');
  });

  it('an answer equal to the last one is that same object; a different one replaces it', async () => {
    const cache = new AnswerCache(8);
    const first = await cache.ask('k', async () => ({ id: 'a', tags: ['x'], n: 1 }));
    const again = await cache.ask('k', async () => ({ id: 'a', tags: ['x'], n: 1 }));
    expect(again).toBe(first);
    const changed = await cache.ask('k', async () => ({ id: 'a', tags: ['x', 'y'], n: 1 }));
    expect(changed).not.toBe(first);
    expect(cache.last('k')).toBe(changed);
  });

  it('keeps the most recently answered keys, never dropping one with a call on its way or unclaimed', async () => {
    const cache = new AnswerCache(2);
    const slow = deferred<string>();
    const waiting = cache.ask('slow', slow.fn); // on its way through everything below
    cache.ahead('ahead', async () => 'early'); // answered, never claimed
    for (const k of ['a', 'b', 'c']) await cache.ask(k, async () => k);
    await cache.ask('a', async () => 'a'); // 'a' answered again: now the most recent
    expect(cache.last('b')).toBeUndefined();
    expect(cache.last('c')).toBeUndefined(); // two places, both held by the calls below
    expect(cache.last('a')).toBe('a');
    expect(cache.atHand('ahead')).toEqual({ data: 'early', stale: false });
    slow.answer('done');
    await expect(waiting).resolves.toBe('done');
    expect(cache.last('slow')).toBe('done');
  });

  it('a call started ahead and never claimed is forgotten after its wait; a failed call leaves nothing', async () => {
    vi.useFakeTimers();
    const cache = new AnswerCache(8, 1_000);
    const d = deferred<string>();
    cache.ahead('k', d.fn);
    vi.advanceTimersByTime(1_000);
    expect(cache.take('k')).toBeUndefined();
    d.fail(new Error('Hub down'));
    const failing = cache.ask('gone', async () => Promise.reject(new Error('Hub down')));
    await expect(failing).rejects.toThrow('Hub down');
    expect(cache.atHand('gone')).toBeUndefined();
    expect(cache.last('k')).toBeUndefined();
  });

  it('sameJson compares plain JSON data deeply', () => {
    expect(sameJson({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(sameJson({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
  });
});
