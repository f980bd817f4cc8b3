import { AppError } from '@shared/errors';
import type { Db } from '../chat/storage/db-open';
import { toColumns, type DocRow } from './index-bases';
import { IN, json, newDocId, type ChunkSpan } from './index-sql';
import type { DocumentRow, PendingChunk } from './ports';
import type { DocChunk } from './types';
import { vectorTable } from './vector-table';

/** The SQL of the index's documents and chunks (IndexStore runs it through the chat store's handle). */

const DOC_GONE = 'This document was removed from its knowledge base.';

/** By id, else by the same file under the same source, else a new document. */
export function writeDocument(db: Db, row: Omit<DocumentRow, 'id'> & { id?: string }): string {
  const had = (
    row.id
      ? db.prepare(`SELECT id FROM doc_documents WHERE id = ?`).get(row.id)
      : db.prepare(`SELECT id FROM doc_documents WHERE source_id = ? AND file = ?`).get(row.source, row.file)
  ) as { id: string } | undefined;
  const id = had?.id ?? row.id ?? newDocId('d');
  const cols = toColumns(id, row);
  if (had)
    db.prepare(
      `UPDATE doc_documents SET base_id = @base_id, source_id = @source_id, name = @name, file = @file,
       path = @path, kind = @kind, size_bytes = @size_bytes, mtime_ms = @mtime_ms, state = @state,
       error = @error, pinned = @pinned, pages = @pages, tokens = @tokens WHERE id = @id`,
    ).run(cols);
  else
    db.prepare(
      `INSERT INTO doc_documents (id, base_id, source_id, name, file, path, kind, size_bytes, mtime_ms, state,
       error, pinned, pages, tokens) VALUES (@id, @base_id, @source_id, @name, @file, @path, @kind,
       @size_bytes, @mtime_ms, @state, @error, @pinned, @pages, @tokens)`,
    ).run(cols);
  return id;
}

export function documentRow(db: Db, id: string): DocRow | undefined {
  return db.prepare(`SELECT * FROM doc_documents WHERE id = ?`).get(id) as DocRow | undefined;
}

export function documentRows(
  db: Db,
  filter: { base?: string; source?: string; state?: DocumentRow['state'][] },
): DocRow[] {
  return db
    .prepare(
      `SELECT * FROM doc_documents WHERE (?1 IS NULL OR base_id = ?1) AND (?2 IS NULL OR source_id = ?2)
       AND (?3 IS NULL OR state ${IN('?3')}) ORDER BY seq`,
    )
    .all(filter.base ?? null, filter.source ?? null, filter.state ? json(filter.state) : null) as DocRow[];
}

export function deleteDocumentRow(db: Db, id: string): void {
  db.prepare(`DELETE FROM doc_documents WHERE id = ?`).run(id);
}

/**
 * Stores a document's chunks from position `from` on; from 0, its earlier chunks go first. A large document is
 * stored in several calls, so no single transaction holds main's event loop for long.
 */
export function writeChunks(db: Db, document: string, chunks: DocChunk[], from = 0): void {
  if (!db.prepare(`SELECT 1 FROM doc_documents WHERE id = ?`).get(document)) throw new AppError('not_found', DOC_GONE);
  if (from === 0) db.prepare(`DELETE FROM doc_chunks WHERE document_id = ?`).run(document);
  const put = db.prepare(
    `INSERT INTO doc_chunks (document_id, ord, text, headings, page, start, end, tokens)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  chunks.forEach((c, i) =>
    put.run(document, from + i, c.text, json(c.headings), c.page ?? null, c.start, c.end, c.tokens),
  );
}

export function unembeddedChunks(db: Db, embedder: string, bases: string[], limit: number): PendingChunk[] {
  const t = vectorTable(db, embedder);
  return db
    .prepare(
      `SELECT c.seq AS id, c.document_id AS document, c.text FROM doc_documents d
       JOIN doc_chunks c ON c.document_id = d.id
       WHERE d.base_id ${IN()} ${t ? `AND NOT EXISTS (SELECT 1 FROM ${t.tbl} v WHERE v.chunk = c.seq)` : ''}
       ORDER BY d.seq, c.ord LIMIT ?`,
    )
    .all(json(bases), limit) as PendingChunk[];
}

export function chunkTotals(db: Db, bases: string[], embedder?: string): { total: number; embedded: number } {
  const t = embedder ? vectorTable(db, embedder) : undefined;
  const r = db
    .prepare(
      `SELECT count(*) AS total, ${t ? 'count(v.chunk)' : '0'} AS embedded FROM doc_documents d
       JOIN doc_chunks c ON c.document_id = d.id ${t ? `LEFT JOIN ${t.tbl} v ON v.chunk = c.seq` : ''}
       WHERE d.base_id ${IN()}`,
    )
    .get(json(bases)) as { total: number; embedded: number };
  return { total: Number(r.total), embedded: Number(r.embedded) };
}

export function chunkSpans(db: Db, document: string): ChunkSpan[] {
  return db
    .prepare(`SELECT text, start, end FROM doc_chunks WHERE document_id = ? ORDER BY ord`)
    .all(document) as ChunkSpan[];
}

export function firstChunkRow(db: Db, document: string): { seq: number } | undefined {
  return db.prepare(`SELECT seq FROM doc_chunks WHERE document_id = ? ORDER BY ord LIMIT 1`).get(document) as
    { seq: number } | undefined;
}
