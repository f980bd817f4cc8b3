import { existsSync } from 'node:fs';
import type { DocumentInfo, Embedder, KnowledgeBase } from '@shared/contract/documents';
import type { Db } from '../chat/storage/db-open';
import { embedderKey, type DocumentRow } from './ports';
import { vectorTable } from './vector-table';

export interface BaseRow {
  id: string;
  name: string;
  conversation: string | null;
}

export interface DocRow {
  id: string;
  base_id: string;
  source_id: string;
  name: string;
  file: string;
  path: string;
  kind: string | null;
  size_bytes: number;
  mtime_ms: number;
  state: string;
  error: string | null;
  pinned: number;
  pages: number | null;
  tokens: number;
}

/** A document as the renderer sees it: its row, and how many of its chunks there are and are embedded. */
const documentInfo = (d: DocumentRow, c: { n: number; done: number }): DocumentInfo => ({
  id: d.id,
  source: d.source,
  name: d.name,
  path: d.path,
  ...(d.kind ? { kind: d.kind } : {}),
  sizeBytes: d.sizeBytes,
  state: d.state,
  chunks: c.n,
  chunksDone: c.done,
  tokens: d.tokens,
  ...(d.pages !== undefined ? { pages: d.pages } : {}),
  ...(d.error ? { error: d.error } : {}),
  pinned: d.pinned,
});

export const toDocumentRow = (r: DocRow): DocumentRow => ({
  id: r.id,
  base: r.base_id,
  source: r.source_id,
  name: r.name,
  file: r.file,
  path: r.path,
  ...(r.kind ? { kind: r.kind as DocumentRow['kind'] } : {}),
  sizeBytes: Number(r.size_bytes),
  mtimeMs: Number(r.mtime_ms),
  state: r.state as DocumentRow['state'],
  ...(r.error ? { error: JSON.parse(r.error) as DocumentRow['error'] } : {}),
  pinned: !!r.pinned,
  ...(r.pages !== null ? { pages: Number(r.pages) } : {}),
  tokens: Number(r.tokens),
});

/** A document's row as its columns are named (the inverse of `toDocumentRow`). */
export const toColumns = (id: string, row: Omit<DocumentRow, 'id'>): DocRow => ({
  id,
  base_id: row.base,
  source_id: row.source,
  name: row.name,
  file: row.file,
  path: row.path,
  kind: row.kind ?? null,
  size_bytes: row.sizeBytes,
  mtime_ms: row.mtimeMs,
  state: row.state,
  error: row.error ? JSON.stringify(row.error) : null,
  pinned: row.pinned ? 1 : 0,
  pages: row.pages ?? null,
  tokens: row.tokens,
});

type Counts = Map<string, { n: number; done: number }>;

/** Chunks per document, and how many have a vector under the embedder. */
function chunkCounts(db: Db, bases: string[], embedder?: Embedder): Counts {
  const t = embedder && vectorTable(db, embedderKey(embedder));
  const rows = db
    .prepare(
      `SELECT c.document_id AS doc, count(*) AS n, ${t ? 'count(v.chunk)' : '0'} AS done
       FROM doc_documents d JOIN doc_chunks c ON c.document_id = d.id
       ${t ? `LEFT JOIN ${t.tbl} v ON v.chunk = c.seq` : ''}
       WHERE d.base_id IN (SELECT value FROM json_each(?)) GROUP BY c.document_id`,
    )
    .all(JSON.stringify(bases)) as { doc: string; n: number; done: number }[];
  return new Map(rows.map((r) => [r.doc, { n: Number(r.n), done: Number(r.done) }]));
}

/** A base's source as the contract shows it, before `exists` is asked of the file system. */
export interface SourceRow {
  id: string;
  base: string;
  kind: 'file' | 'folder' | 'upload';
  path: string;
}

/** The bases as the contract shows them: sources (`exists` from the file system) and documents with progress. */
export function buildBases(db: Db, rows: BaseRow[], embedder?: Embedder, next?: Embedder): KnowledgeBase[] {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const idsJson = JSON.stringify(ids);
  const sources = db
    .prepare(
      `SELECT id, base_id AS base, kind, path FROM doc_sources WHERE base_id IN (SELECT value FROM json_each(?))
       ORDER BY seq`,
    )
    .all(idsJson) as SourceRow[];
  const docs = db
    .prepare(`SELECT * FROM doc_documents WHERE base_id IN (SELECT value FROM json_each(?)) ORDER BY seq`)
    .all(idsJson) as DocRow[];
  const counts = chunkCounts(db, ids, embedder);
  const nextCounts = next ? chunkCounts(db, ids, next) : undefined;
  return assembleBases(rows, sources, docs.map(toDocumentRow), existsSync, {
    embedder,
    counts,
    ...(next && nextCounts ? { next: { embedder: next, counts: nextCounts } } : {}),
  });
}

/**
 * The bases in the list's order, each with its sources and its documents' progress under the embedder (and under
 * the next one while a re-embed builds it), from what the index holds; `exists` asks whether a source's path is
 * there. Pure, so an index kept elsewhere (the tests' in memory) shows its bases the same way.
 */
export function assembleBases(
  rows: BaseRow[],
  sources: SourceRow[],
  docs: DocumentRow[],
  exists: (path: string) => boolean,
  chunks: { embedder?: Embedder; counts: Counts; next?: { embedder: Embedder; counts: Counts } },
): KnowledgeBase[] {
  const { embedder, counts, next } = chunks;
  // Named bases first, by name; a conversation's own after them.
  rows.sort(
    (a, b) =>
      Number(!!a.conversation) - Number(!!b.conversation) ||
      a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
  );
  return rows.map((b) => {
    const mine = docs.filter((d) => d.base === b.id);
    const documents = mine.map((d) => documentInfo(d, counts.get(d.id) ?? { n: 0, done: 0 }));
    let reembedding: KnowledgeBase['reembedding'];
    if (next) {
      const all = mine.map((d) => next.counts.get(d.id) ?? { n: 0, done: 0 });
      reembedding = {
        embedder: next.embedder,
        done: all.reduce((s, c) => s + c.done, 0),
        total: all.reduce((s, c) => s + c.n, 0),
      };
    }
    return {
      id: b.id,
      name: b.name,
      ...(b.conversation ? { conversation: b.conversation } : {}),
      ...(embedder ? { embedder } : {}),
      sources: sources
        .filter((s) => s.base === b.id)
        .map((s) => ({ id: s.id, kind: s.kind, path: s.path, exists: exists(s.path) })),
      documents,
      ...(reembedding ? { reembedding } : {}),
    };
  });
}
