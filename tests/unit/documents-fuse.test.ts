import { describe, expect, it } from 'vitest';
import { budget } from '../../electron/main/services/documents/budget';
import { fuse } from '../../electron/main/services/documents/fuse';

const hits = (ids: string) => [...ids].map((id) => ({ id }));

describe('fuse: reciprocal rank fusion, k = 60', () => {
  it('ranks a worked example: agreement between the lists beats one top rank', () => {
    // A: 1/61 + 1/62 = .032522, C: 1/63 + 1/61 = .032266, B: 1/62 = .016129, D: 1/63 = .015873
    const fused = fuse(hits('ABC'), hits('CAD'));
    expect(fused.map((f) => f.id)).toEqual(['A', 'C', 'B', 'D']);
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1].ranks).toEqual({ vector: 3, bm25: 1 });
    expect(fused[3].ranks).toEqual({ bm25: 3 });
    // U (last for the vectors, first for BM25) passes P (first for the vectors only); Q, second in both, leads.
    expect(fuse(hits('PQRSTU'), hits('UQ')).map((f) => f.id)).toEqual(['Q', 'U', 'P', 'R', 'S', 'T']);
  });

  it('keeps ties in a fixed order (the vector list’s, then BM25-only hits), and counts a repeat at its best rank', () => {
    expect(fuse(hits('XY'), hits('ZW')).map((f) => f.id)).toEqual(['X', 'Z', 'Y', 'W']);
    expect(fuse(hits('ZW'), hits('XY')).map((f) => f.id)).toEqual(['Z', 'X', 'W', 'Y']);
    const [a] = fuse(hits('AA'), []);
    expect(a.score).toBeCloseTo(1 / 61, 12);
    expect(fuse([], []).length).toBe(0);
  });

  it('returns each hit as the vector list gave it when both have it', () => {
    const [top] = fuse([{ id: 7, from: 'vector' }], [{ id: 7, from: 'bm25' }]);
    expect(top.hit.from).toBe('vector');
  });
});

describe('budget: the top chunks within a token budget', () => {
  it('keeps chunks whole, in rank order, passing over one too big for what is left', () => {
    const ranked = [50, 30, 40, 10, 15].map((tokens, rank) => ({ rank, tokens }));
    expect(budget(ranked, 75).map((c) => c.rank)).toEqual([0, 3, 4]);
    expect(budget(ranked, 49).map((c) => c.rank)).toEqual([1, 3]);
    expect(budget(ranked, 0)).toEqual([]);
  });

  it('never exceeds the budget and never reorders (seeded random cases)', () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 300; n++) {
      const ranked = Array.from({ length: 1 + Math.floor(rand() * 30) }, (_, rank) => ({
        rank,
        tokens: 1 + Math.floor(rand() * 400),
      }));
      const max = Math.floor(rand() * 2000);
      const kept = budget(ranked, max);
      expect(kept.reduce((s, c) => s + c.tokens, 0)).toBeLessThanOrEqual(max);
      expect(kept.map((c) => c.rank)).toEqual([...kept.map((c) => c.rank)].sort((a, b) => a - b));
      // Greedy: every chunk passed over was too big for what was left when it came.
      let left = max;
      for (const c of ranked) {
        if (kept.includes(c)) left -= c.tokens;
        else expect(c.tokens).toBeGreaterThan(left);
      }
    }
  });
});
