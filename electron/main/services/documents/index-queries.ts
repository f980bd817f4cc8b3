import { embedderSchema, type Embedder, type Passage } from '@shared/contract/documents';
import type { Db } from '../chat/storage/db';
import { ftsQuery, headingPath } from './index-sql';

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

/** The BM25 half: chunks of these bases matching any word of the query, best first. */
export function textSearch(db: Db, bases: string[], query: string, limit: number): number[] {
  const match = ftsQuery(query);
  if (!match) return [];
  const rows = db
    .prepare(
      `SELECT c.seq AS id FROM doc_chunks_fts f JOIN doc_chunks c ON c.seq = f.rowid
       JOIN doc_documents d ON d.id = c.document_id
       WHERE doc_chunks_fts MATCH ? AND d.base_id ${IN} ORDER BY bm25(doc_chunks_fts) LIMIT ?`,
    )
    .all(match, JSON.stringify(bases), limit) as { id: number }[];
  return rows.map((r) => Number(r.id));
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
