import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveText } from '../../renderer/src/store/live-text';

describe('LiveText', () => {
  let frames: FrameRequestCallback[];
  const runFrame = () => {
    const due = frames;
    frames = [];
    for (const fn of due) fn(performance.now());
  };
  beforeEach(() => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (fn: FrameRequestCallback) => frames.push(fn));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('tells its listeners once per animation frame, in it, however many batches arrived', () => {
    const t = new LiveText();
    const seen: string[] = [];
    t.subscribe(() => seen.push(t.content));
    t.subscribe(() => seen.push(`after:${t.content}`));
    for (const delta of ['a', 'b', 'c']) {
      t.content += delta;
      t.notify();
    }
    expect(seen).toEqual([]);
    expect(frames).toHaveLength(1);
    runFrame();
    // In subscription order, each with the whole text so far.
    expect(seen).toEqual(['abc', 'after:abc']);
    t.content += 'd';
    t.notify();
    runFrame();
    expect(seen).toEqual(['abc', 'after:abc', 'abcd', 'after:abcd']);
  });

  it('a listener that unsubscribed before the frame is not called', () => {
    const t = new LiveText();
    const fn = vi.fn();
    const off = t.subscribe(fn);
    t.notify();
    off();
    runFrame();
    expect(fn).not.toHaveBeenCalled();
  });
});
