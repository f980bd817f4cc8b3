import { embedderSchema, type Embedder, type Passage } from '@shared/contract/documents';
import type { Db } from '../chat/storage/db-open';
import { ftsQuery, headingPath, queryWords } from './index-sql';

const IN = `IN (SELECT value FROM json_each(?))`;

/** The chunks with where they are in their documents (those gone are left out). */
export function readPassages(db: Db, chunks: number[]): Passage[] {
  if (!chunks.length) return [];
  const rows = db
    .prepare(
      `SELECT c.seq, c.document_id, c.text, c.headings, c.page, d.name, d.path FROM doc_chunks c
       JOIN doc_documents d ON d.id = c.document_id WHERE c.seq ${IN}`,
    )
    .all(JSON.stringify(chunks)) as {
    seq: number;
    document_id: string;
    text: string;
    headings: string;
    page: number | null;
    name: string;
    path: string;
  }[];
  return rows.map((r) => {
    const heading = headingPath(r.headings);
    return {
      chunk: Number(r.seq),
      document: r.document_id,
      name: r.name,
      path: r.path,
      ...(r.page !== null ? { page: Number(r.page) } : {}),
      ...(heading ? { heading } : {}),
      text: r.text,
    };
  });
}

/**
 * How many rows of the FTS index the BM25 half scores at most. FTS5 scores every row that matches before it can
 * rank them, so a question full of common words would score most of a large index: its commonest words are left
 * out while the rarer ones already match this many (they weigh little in BM25 anyway).
 */
const MAX_POSTINGS = 2_000;

/** The question's words kept for BM25: rarest first, until they match MAX_POSTINGS rows (at least one word). */
function rareWords(db: Db, words: string[]): string[] {
  // Each word's rows counted up to the cap only, so a word in every chunk costs no more than a rare one.
  const count = db.prepare(
    `SELECT count(*) AS n FROM (SELECT 1 FROM doc_chunks_fts WHERE doc_chunks_fts MATCH ? LIMIT ${MAX_POSTINGS + 1})`,
  );
  const counted = words
    .map((w) => ({ w, n: Number((count.get(ftsQuery([w])) as { n: number }).n) }))
    .sort((a, b) => a.n - b.n);
  const kept: string[] = [];
  let postings = 0;
  for (const { w, n } of counted) {
    if (kept.length && postings + n > MAX_POSTINGS) break;
    kept.push(w);
    postings += n;
  }
  return kept;
}

/**
 * The BM25 candidates: at most MAX_POSTINGS matching rows, scored. Without ORDER BY, FTS5 stops reading there, so a
 * question whose rarest word is in most chunks costs no more than one in MAX_POSTINGS (its candidates are then the
 * first rows that match, the oldest chunks: words that common say little about which chunk is meant anyway).
 */
const CANDIDATES = `SELECT rowid AS id, bm25(doc_chunks_fts) AS s FROM doc_chunks_fts WHERE doc_chunks_fts MATCH ?
  LIMIT ${MAX_POSTINGS}`;
const IN_BASES = `JOIN doc_chunks c ON c.seq = f.id JOIN doc_documents d ON d.id = c.document_id WHERE d.base_id ${IN}`;

/**
 * The BM25 half: chunks of these bases matching the question's words (the rarer ones), best first, with their
 * score (FTS5's bm25 negated: higher is better).
 */
export function textSearch(db: Db, bases: string[], query: string, limit: number): { id: number; score: number }[] {
  const words = queryWords(query);
  if (!words.length) return [];
  const match = ftsQuery(rareWords(db, words));
  const inBases = JSON.stringify(bases);
  // The best candidates first, their bases checked after: looking each candidate's base up costs more than scoring it.
  const best = db
    .prepare(
      `SELECT c.seq AS id, f.s AS s FROM (SELECT id, s FROM (${CANDIDATES}) ORDER BY s LIMIT ?) f ${IN_BASES} ORDER BY f.s`,
    )
    .all(match, limit * 4, inBases) as { id: number; s: number }[];
  let rows = best.slice(0, limit);
  // Short: other bases hold the best matches (or there are few): the candidates taken from these bases only.
  if (rows.length < limit)
    rows = db
      .prepare(
        `SELECT id, s FROM (SELECT c.seq AS id, bm25(doc_chunks_fts) AS s FROM doc_chunks_fts f
         JOIN doc_chunks c ON c.seq = f.rowid JOIN doc_documents d ON d.id = c.document_id
         WHERE doc_chunks_fts MATCH ? AND d.base_id ${IN} LIMIT ${MAX_POSTINGS}) ORDER BY s LIMIT ?`,
      )
      .all(match, inBases, limit) as { id: number; s: number }[];
  return rows.map((r) => ({ id: Number(r.id), score: -Number(r.s) }));
}

/** An embedder kept in the chat database's settings (a value that no longer parses reads as none). */
export function readEmbedder(db: Db, key: string): Embedder | undefined {
  const v = db.prepare(`SELECT value FROM settings WHERE key = ?`).get(key) as { value: string } | undefined;
  if (!v) return undefined;
  try {
    const parsed = embedderSchema.safeParse(JSON.parse(v.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeEmbedder(db: Db, key: string, e: Embedder | undefined): void {
  if (e)
    db.prepare(
      `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(key, JSON.stringify(e));
  else db.prepare(`DELETE FROM settings WHERE key = ?`).run(key);
}
