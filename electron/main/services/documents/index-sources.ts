import { AppError } from '@shared/errors';
import type { Db } from '../chat/storage/db-open';
import type { BaseRow, SourceRow } from './index-bases';
import { IN, json } from './index-sql';

/** The SQL of the index's bases and sources (IndexStore runs it through the chat store's handle). */

const BASE_GONE = 'This knowledge base was deleted.';
const SOURCE_GONE = 'This attachment was removed from its knowledge base.';

export type SourceKind = 'file' | 'folder' | 'upload';

export function insertBase(db: Db, id: string, name: string, conversation?: string): void {
  db.prepare(`INSERT INTO doc_bases (id, name, conversation, created_at) VALUES (?, ?, ?, ?)`).run(
    id,
    name,
    conversation ?? null,
    new Date().toISOString(),
  );
}

export function updateBaseName(db: Db, id: string, name: string): void {
  const { changes } = db.prepare(`UPDATE doc_bases SET name = ? WHERE id = ?`).run(name, id);
  if (!changes) throw new AppError('not_found', BASE_GONE);
}

/** Its sources, documents, chunks, FTS rows and vectors under every embedder go with it (cascades, triggers). */
export function deleteBaseRow(db: Db, id: string): void {
  const { changes } = db.prepare(`DELETE FROM doc_bases WHERE id = ?`).run(id);
  if (!changes) throw new AppError('not_found', BASE_GONE);
}

/** The id of a conversation's own base (its attachments), if it has one yet. */
export function conversationBaseId(db: Db, conversation: string): string | undefined {
  const had = db.prepare(`SELECT id FROM doc_bases WHERE conversation = ?`).get(conversation) as
    { id: string } | undefined;
  return had?.id;
}

/** The rows of these bases (`ids`), or of the named bases and the conversation's own. */
export function baseRows(db: Db, filter: { conversation?: string; ids?: string[] }): BaseRow[] {
  return (
    filter.ids
      ? db.prepare(`SELECT id, name, conversation FROM doc_bases WHERE id ${IN()}`).all(json(filter.ids))
      : db
          .prepare(`SELECT id, name, conversation FROM doc_bases WHERE conversation IS NULL OR conversation = ?`)
          .all(filter.conversation ?? '')
  ) as BaseRow[];
}

export function insertSource(db: Db, id: string, base: string, kind: SourceKind, path: string): void {
  if (!db.prepare(`SELECT 1 FROM doc_bases WHERE id = ?`).get(base)) throw new AppError('not_found', BASE_GONE);
  db.prepare(`INSERT INTO doc_sources (id, base_id, kind, path) VALUES (?, ?, ?, ?)`).run(id, base, kind, path);
}

/** Removes the source and its documents; returns the uploaded copies the caller should delete. */
export function deleteSource(db: Db, id: string): { base: string; uploads: string[] } {
  const s = db.prepare(`SELECT base_id, kind, path FROM doc_sources WHERE id = ?`).get(id) as
    { base_id: string; kind: SourceKind; path: string } | undefined;
  if (!s) throw new AppError('not_found', SOURCE_GONE);
  const files =
    s.kind === 'upload'
      ? (db.prepare(`SELECT file FROM doc_documents WHERE source_id = ?`).all(id) as { file: string }[])
      : [];
  db.prepare(`DELETE FROM doc_sources WHERE id = ?`).run(id);
  const uploads = s.kind === 'upload' ? [...new Set([s.path, ...files.map((f) => f.file)])] : [];
  return { base: s.base_id, uploads };
}

export function sourceRows(db: Db): SourceRow[] {
  return db.prepare(`SELECT id, base_id AS base, kind, path FROM doc_sources ORDER BY seq`).all() as SourceRow[];
}
