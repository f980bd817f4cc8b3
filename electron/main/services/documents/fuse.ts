/** A search hit from one retriever, best first in its list. */
export interface RankedHit<K> {
  id: K;
}

export interface FusedHit<K, T extends RankedHit<K>> {
  id: K;
  /** Σ 1 / (k + rank) over the lists the hit is in (ranks from 1). */
  score: number;
  /** The hit as the first list that has it gave it (the vector list before BM25). */
  hit: T;
  /** Its 1-based rank in each list it is in. */
  ranks: { vector?: number; bm25?: number };
}

/** The usual constant of reciprocal rank fusion (Cormack et al., 2009): it damps the weight of the very top ranks. */
const RRF_K = 60;

/**
 * Reciprocal rank fusion of the vector and BM25 results: each hit scores Σ 1 / (k + rank) over the lists it is in,
 * so agreement between the two beats a high rank in one. Ties keep a fixed order: the vector list's hits first, in
 * their order, then the hits only BM25 found, in theirs. A repeated id in one list counts at its best rank.
 */
export function fuse<K, T extends RankedHit<K>>(vectorHits: T[], bm25Hits: T[], k = RRF_K): FusedHit<K, T>[] {
  const byId = new Map<K, FusedHit<K, T>>();
  const add = (hits: T[], list: 'vector' | 'bm25') =>
    hits.forEach((hit, i) => {
      let f = byId.get(hit.id);
      if (!f) byId.set(hit.id, (f = { id: hit.id, score: 0, hit, ranks: {} }));
      if (f.ranks[list] !== undefined) return;
      f.ranks[list] = i + 1;
      f.score += 1 / (k + i + 1);
    });
  add(vectorHits, 'vector');
  add(bm25Hits, 'bm25');
  // Array.prototype.sort is stable: equal scores keep the insertion order above.
  return [...byId.values()].sort((a, b) => b.score - a.score);
}
