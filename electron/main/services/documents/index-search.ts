import type { Passage, SearchHit } from '@shared/contract/documents';
import type { Db } from '../chat/storage/db-open';
import { fuse, type FusedHit } from './fuse';
import { readPassages, textSearch } from './index-queries';
import { nearestChunks, similarities, vectorTable } from './vector-table';

/**
 * Hybrid search of the index: libsql's vector index and FTS5 BM25, fused by reciprocal rank, each hit with its
 * passage and how it ranked.
 */
export function hybridSearch(
  db: Db,
  bases: string[],
  query: string,
  queryVector: number[] | undefined,
  embedder: string | undefined,
  limit: number,
): SearchHit[] {
  // Each half offers more than `limit`, so a passage both find can rise above one only one finds.
  const each = limit * 2;
  const t = queryVector && embedder ? vectorTable(db, embedder) : undefined;
  const vectorIds = t && queryVector ? nearestChunks(db, t, bases, queryVector, each) : [];
  const textHits = textSearch(db, bases, query, each);
  const textScores = new Map(textHits.map((h) => [h.id, h.score]));
  const fused = fuse<number, { id: number }>(
    vectorIds.map((id) => ({ id })),
    textHits.map(({ id }) => ({ id })),
  ).slice(0, limit);
  const passages = new Map(
    readPassages(
      db,
      fused.map((f) => f.id),
    ).map((p) => [p.chunk, p]),
  );
  // How near each is, for retrieval's relevance floor (ranks alone say nothing of how near the nearest is).
  const sims =
    t && queryVector
      ? similarities(
          db,
          t,
          fused.map((f) => f.id),
          queryVector,
        )
      : new Map<number, number>();
  return searchHits(fused, passages, textScores, sims);
}

/** The fused hits as the contract shows them: each one's passage (those gone are left out), score and ranks. */
export function searchHits(
  fused: FusedHit<number, { id: number }>[],
  passages: Map<number, Passage>,
  textScores: Map<number, number>,
  sims: Map<number, number>,
): SearchHit[] {
  return fused.flatMap((f) => {
    const p = passages.get(f.id);
    if (!p) return [];
    const sim = sims.get(f.id);
    const ranks = {
      ...(f.ranks.vector ? { vectorRank: f.ranks.vector } : {}),
      ...(f.ranks.bm25 ? { textRank: f.ranks.bm25, textScore: textScores.get(f.id) ?? 0 } : {}),
      ...(sim !== undefined ? { similarity: sim } : {}),
    };
    return [{ ...p, score: f.score, ...ranks }];
  });
}
