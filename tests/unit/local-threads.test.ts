import { describe, expect, it } from 'vitest';
import { defaultThreads } from '../../electron/main/services/local/host/threads';

describe("the engine's default CPU threads", () => {
  it('leaves one core free: 1 on a 2-core machine, where every core made a tiny model answer at ~3 tok/s', () => {
    expect(defaultThreads(undefined, 2)).toBe(1);
    expect(defaultThreads(2, 2)).toBe(1);
  });

  it("takes llama.cpp's math cores when fewer than every core but one, and never less than one", () => {
    expect(defaultThreads(4, 8)).toBe(4);
    expect(defaultThreads(8, 8)).toBe(7);
    expect(defaultThreads(undefined, 1)).toBe(1);
    expect(defaultThreads(0, 4)).toBe(1);
  });
});
