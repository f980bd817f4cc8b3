import { createHash } from 'node:crypto';
import type { Db } from '../chat/storage/db-open';

/**
 * One vector table per embedder (its dimension is the model's): `vec_<hash>` (chunk → F32_BLOB(dim)) with a libsql
 * vector index. The neighbours in the index are kept as 1-bit signs and at most 16 per node: with full float
 * neighbours a 768-dim node is ~250 KB and an insert reads dozens of them (a few inserts a second on a laptop).
 * A search visits 64 candidates (libsql's default 200 took ~2.5× as long and found the same near passages on
 * 3,000 768-dim vectors); the hits are ranked by the exact cosine distance of the stored vectors.
 */
const INDEX_OPTIONS = `'metric=cosine', 'compress_neighbors=float1bit', 'max_neighbors=16', 'search_l=64'`;

/** Below this many chunks in the searched bases, the vector half scans them exactly rather than asking the index. */
const EXACT_SCAN_MAX = 2_000;

export interface VectorTable {
  tbl: string;
  dim: number;
}

const tableName = (key: string) => `vec_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

export function vectorTable(db: Db, key: string): VectorTable | undefined {
  return db.prepare(`SELECT tbl, dim FROM doc_embedders WHERE key = ?`).get(key) as VectorTable | undefined;
}

/** The embedder's table, created on its first vector; a new dimension for the same key starts it again. */
export function ensureVectorTable(db: Db, key: string, dim: number): VectorTable {
  const had = vectorTable(db, key);
  if (had && had.dim === dim) return had;
  if (had) dropVectorTable(db, key);
  const tbl = tableName(key);
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${tbl} (
       chunk INTEGER PRIMARY KEY REFERENCES doc_chunks(seq) ON DELETE CASCADE,
       e F32_BLOB(${dim}) NOT NULL
     );
     CREATE INDEX IF NOT EXISTS ${tbl}_idx ON ${tbl} (libsql_vector_idx(e, ${INDEX_OPTIONS}));`,
  );
  db.prepare(`INSERT INTO doc_embedders (key, tbl, dim) VALUES (?, ?, ?)`).run(key, tbl, dim);
  return { tbl, dim };
}

export function dropVectorTable(db: Db, key: string): void {
  const t = vectorTable(db, key);
  if (!t) return;
  db.exec(`DROP TABLE IF EXISTS ${t.tbl}`);
  db.prepare(`DELETE FROM doc_embedders WHERE key = ?`).run(key);
}

/** Stores vectors (a chunk deleted meanwhile is skipped, not an error: its document was re-indexed). */
export function writeVectors(db: Db, t: VectorTable, vectors: { chunk: number; vector: number[] }[]): void {
  const put = db.prepare(
    `INSERT OR REPLACE INTO ${t.tbl} (chunk, e)
     SELECT ?1, vector32(?2) WHERE EXISTS (SELECT 1 FROM doc_chunks WHERE seq = ?1)`,
  );
  for (const v of vectors) {
    if (v.vector.length !== t.dim)
      throw new Error(`a vector of ${v.vector.length} dimensions for an index of ${t.dim}`);
    put.run(v.chunk, Buffer.from(new Float32Array(v.vector).buffer));
  }
}

/**
 * The chunks of these bases nearest the query vector, nearest first. The index cannot filter, so it is asked for
 * 4× the hits and they are filtered; when that leaves too few (the bases are a small part of the index), or the
 * bases are small anyway, their chunks are scanned exactly.
 */
export function nearestChunks(db: Db, t: VectorTable, bases: string[], vector: number[], limit: number): number[] {
  const q = JSON.stringify(vector);
  const basesJson = JSON.stringify(bases);
  const exact = () =>
    (
      db
        .prepare(
          `SELECT v.chunk FROM doc_documents d JOIN doc_chunks c ON c.document_id = d.id
           JOIN ${t.tbl} v ON v.chunk = c.seq
           WHERE d.base_id IN (SELECT value FROM json_each(?)) ORDER BY vector_distance_cos(v.e, vector32(?)) LIMIT ?`,
        )
        .all(basesJson, q, limit) as { chunk: number }[]
    ).map((r) => r.chunk);
  const inBases = db
    .prepare(
      `SELECT count(*) AS n FROM (SELECT 1 FROM doc_documents d JOIN doc_chunks c ON c.document_id = d.id
       WHERE d.base_id IN (SELECT value FROM json_each(?)) LIMIT ?)`,
    )
    .get(basesJson, EXACT_SCAN_MAX + 1) as { n: number };
  if (Number(inBases.n) <= EXACT_SCAN_MAX) return exact();
  const k = limit * 4;
  // The query vector goes as JSON text: libsql 0.5 aborts the process on a blob bound inside vector_top_k.
  const hits = (
    db
      .prepare(
        `SELECT v.chunk FROM vector_top_k('${t.tbl}_idx', vector32(?1), ?2) AS t
         JOIN ${t.tbl} v ON v.rowid = t.id JOIN doc_chunks c ON c.seq = v.chunk
         JOIN doc_documents d ON d.id = c.document_id
         WHERE d.base_id IN (SELECT value FROM json_each(?3))
         ORDER BY vector_distance_cos(v.e, vector32(?1)) LIMIT ?4`,
      )
      .all(q, k, basesJson, limit) as { chunk: number }[]
  ).map((r) => r.chunk);
  return hits.length < limit ? exact() : hits;
}

/** Cosine similarity to the query of these chunks' stored vectors (chunks with none are left out): a few dozen rows. */
export function similarities(db: Db, t: VectorTable, chunks: number[], vector: number[]): Map<number, number> {
  if (!chunks.length) return new Map();
  const rows = db
    .prepare(
      `SELECT chunk, 1 - vector_distance_cos(e, vector32(?1)) AS sim FROM ${t.tbl}
       WHERE chunk IN (SELECT value FROM json_each(?2))`,
    )
    .all(JSON.stringify(vector), JSON.stringify(chunks)) as { chunk: number; sim: number }[];
  return new Map(rows.map((r) => [Number(r.chunk), Number(r.sim)]));
}
