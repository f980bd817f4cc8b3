import { type Embedder, type KnowledgeBase, type Passage, type SearchHit } from '@shared/contract/documents';
import { AppError } from '@shared/errors';
import type { ChatStore } from '../chat/storage/store';
import type { Db } from '../chat/storage/db-open';
import { fuse } from './fuse';
import { buildBases, toColumns, toDocumentRow, type BaseRow, type DocRow } from './index-bases';
import { joinChunks, newDocId, type ChunkSpan } from './index-sql';
import { readEmbedder, readPassages, textSearch, writeEmbedder } from './index-queries';
import type { DocIndexPort, DocumentRow, PendingChunk } from './ports';
import type { DocChunk } from './types';
import {
  dropVectorTable,
  ensureVectorTable,
  nearestChunks,
  similarities,
  vectorTable,
  writeVectors,
} from './vector-table';

const BASE_GONE = 'This knowledge base was deleted.';
const SOURCE_GONE = 'This attachment was removed from its knowledge base.';
const DOC_GONE = 'This document was removed from its knowledge base.';
const PASSAGE_GONE = 'This passage is no longer in the index: its document was removed or indexed again since.';
/** The name of a conversation's own base (its attachments). */
const CONVERSATION_BASE = 'Attached to this conversation';
const EMBEDDER = 'docs.embedder';
const NEXT_EMBEDDER = 'docs.nextEmbedder';

type SourceKind = 'file' | 'folder' | 'upload';
const json = (a: unknown[]) => JSON.stringify(a);
const IN = (param = '?') => `IN (SELECT value FROM json_each(${param}))`;

/**
 * The documents' index (DocIndexPort) in the chat database, through the chat store's handle (opened on first use,
 * SQLite failures said as the chat store says them): tables of the documents migration, one vector table per
 * embedder, and hybrid search (libsql's vector index and FTS5 BM25, fused by reciprocal rank).
 */
export class IndexStore implements DocIndexPort {
  constructor(private readonly chat: ChatStore) {}

  /** Runs SQL on the chat database (`tx`: in one transaction). */
  private q<T>(fn: (db: Db) => T, tx = false): T {
    return this.chat.write(() => {
      const c = this.chat.db;
      return tx ? c.tx(() => fn(c.db)) : fn(c.db);
    });
  }

  // Bases and sources.

  createBase(name: string, conversation?: string): string {
    const id = newDocId('b');
    this.q((db) =>
      db
        .prepare(`INSERT INTO doc_bases (id, name, conversation, created_at) VALUES (?, ?, ?, ?)`)
        .run(id, name, conversation ?? null, new Date().toISOString()),
    );
    return id;
  }

  renameBase(id: string, name: string): void {
    const { changes } = this.q((db) => db.prepare(`UPDATE doc_bases SET name = ? WHERE id = ?`).run(name, id));
    if (!changes) throw new AppError('not_found', BASE_GONE);
  }

  /** Its sources, documents, chunks, FTS rows and vectors under every embedder go with it (cascades, triggers). */
  deleteBase(id: string): void {
    const { changes } = this.q((db) => db.prepare(`DELETE FROM doc_bases WHERE id = ?`).run(id), true);
    if (!changes) throw new AppError('not_found', BASE_GONE);
  }

  conversationBase(conversation: string): string {
    return this.q((db) => {
      const had = db.prepare(`SELECT id FROM doc_bases WHERE conversation = ?`).get(conversation) as
        { id: string } | undefined;
      return had?.id ?? this.createBase(CONVERSATION_BASE, conversation);
    }, true);
  }

  bases(filter: { conversation?: string; ids?: string[] } = {}): KnowledgeBase[] {
    return this.q((db) => {
      const rows = (
        filter.ids
          ? db.prepare(`SELECT id, name, conversation FROM doc_bases WHERE id ${IN()}`).all(json(filter.ids))
          : db
              .prepare(`SELECT id, name, conversation FROM doc_bases WHERE conversation IS NULL OR conversation = ?`)
              .all(filter.conversation ?? '')
      ) as BaseRow[];
      // Named bases first, by name; a conversation's own after them.
      rows.sort(
        (a, b) =>
          Number(!!a.conversation) - Number(!!b.conversation) ||
          a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
      );
      return buildBases(db, rows, this.getEmbedder(), this.getNextEmbedder());
    });
  }

  addSource(base: string, kind: SourceKind, path: string): string {
    const id = newDocId('s');
    this.q((db) => {
      if (!db.prepare(`SELECT 1 FROM doc_bases WHERE id = ?`).get(base)) throw new AppError('not_found', BASE_GONE);
      db.prepare(`INSERT INTO doc_sources (id, base_id, kind, path) VALUES (?, ?, ?, ?)`).run(id, base, kind, path);
    }, true);
    return id;
  }

  /** Removes the source and its documents; returns the uploaded copies the caller should delete. */
  removeSource(id: string): { base: string; uploads: string[] } {
    return this.q((db) => {
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
    }, true);
  }

  sources(): { id: string; base: string; kind: SourceKind; path: string }[] {
    return this.q(
      (db) =>
        db.prepare(`SELECT id, base_id AS base, kind, path FROM doc_sources ORDER BY seq`).all() as {
          id: string;
          base: string;
          kind: SourceKind;
          path: string;
        }[],
    );
  }

  // Documents and chunks.

  /** By id, else by the same file under the same source, else a new document. */
  upsertDocument(row: Omit<DocumentRow, 'id'> & { id?: string }): string {
    return this.q((db) => {
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
    }, true);
  }

  document(id: string): DocumentRow | undefined {
    const r = this.q((db) => db.prepare(`SELECT * FROM doc_documents WHERE id = ?`).get(id)) as DocRow | undefined;
    return r && toDocumentRow(r);
  }

  documents(filter: { base?: string; source?: string; state?: DocumentRow['state'][] }): DocumentRow[] {
    const rows = this.q((db) =>
      db
        .prepare(
          `SELECT * FROM doc_documents WHERE (?1 IS NULL OR base_id = ?1) AND (?2 IS NULL OR source_id = ?2)
           AND (?3 IS NULL OR state ${IN('?3')}) ORDER BY seq`,
        )
        .all(filter.base ?? null, filter.source ?? null, filter.state ? json(filter.state) : null),
    ) as DocRow[];
    return rows.map(toDocumentRow);
  }

  deleteDocument(id: string): void {
    this.q((db) => db.prepare(`DELETE FROM doc_documents WHERE id = ?`).run(id), true);
  }

  /**
   * Stores a document's chunks from position `from` on; from 0, its earlier chunks go first. A large document is
   * stored in several calls, so no single transaction holds main's event loop for long.
   */
  putChunks(document: string, chunks: DocChunk[], from = 0): void {
    this.q((db) => {
      if (!db.prepare(`SELECT 1 FROM doc_documents WHERE id = ?`).get(document))
        throw new AppError('not_found', DOC_GONE);
      if (from === 0) db.prepare(`DELETE FROM doc_chunks WHERE document_id = ?`).run(document);
      const put = db.prepare(
        `INSERT INTO doc_chunks (document_id, ord, text, headings, page, start, end, tokens)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      chunks.forEach((c, i) =>
        put.run(document, from + i, c.text, json(c.headings), c.page ?? null, c.start, c.end, c.tokens),
      );
    }, true);
  }

  pendingChunks(embedder: string, bases: string[], limit: number): PendingChunk[] {
    return this.q((db) => {
      const t = vectorTable(db, embedder);
      return db
        .prepare(
          `SELECT c.seq AS id, c.document_id AS document, c.text FROM doc_documents d
           JOIN doc_chunks c ON c.document_id = d.id
           WHERE d.base_id ${IN()} ${t ? `AND NOT EXISTS (SELECT 1 FROM ${t.tbl} v WHERE v.chunk = c.seq)` : ''}
           ORDER BY d.seq, c.ord LIMIT ?`,
        )
        .all(json(bases), limit) as PendingChunk[];
    });
  }

  countChunks(bases: string[], embedder?: string): { total: number; embedded: number } {
    return this.q((db) => {
      const t = embedder ? vectorTable(db, embedder) : undefined;
      const r = db
        .prepare(
          `SELECT count(*) AS total, ${t ? 'count(v.chunk)' : '0'} AS embedded FROM doc_documents d
           JOIN doc_chunks c ON c.document_id = d.id ${t ? `LEFT JOIN ${t.tbl} v ON v.chunk = c.seq` : ''}
           WHERE d.base_id ${IN()}`,
        )
        .get(json(bases)) as { total: number; embedded: number };
      return { total: Number(r.total), embedded: Number(r.embedded) };
    });
  }

  putVectors(embedder: string, dim: number, vectors: { chunk: number; vector: number[] }[]): void {
    this.q((db) => writeVectors(db, ensureVectorTable(db, embedder, dim), vectors), true);
  }

  dropEmbedder(embedder: string): void {
    this.q((db) => dropVectorTable(db, embedder), true);
  }

  chunkText(document: string): string {
    const rows = this.q((db) =>
      db.prepare(`SELECT text, start, end FROM doc_chunks WHERE document_id = ? ORDER BY ord`).all(document),
    ) as ChunkSpan[];
    return joinChunks(rows);
  }

  firstChunk(document: string): number | undefined {
    const r = this.q((db) =>
      db.prepare(`SELECT seq FROM doc_chunks WHERE document_id = ? ORDER BY ord LIMIT 1`).get(document),
    ) as { seq: number } | undefined;
    return r && Number(r.seq);
  }

  // Search.

  search(
    bases: string[],
    query: string,
    queryVector: number[] | undefined,
    embedder: string | undefined,
    limit: number,
  ): SearchHit[] {
    if (!bases.length) return [];
    // Each half offers more than `limit`, so a passage both find can rise above one only one finds.
    const each = limit * 2;
    return this.q((db) => {
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
    });
  }

  passage(chunk: number): Passage {
    const p = this.q((db) => readPassages(db, [chunk]))[0];
    if (!p) throw new AppError('not_found', PASSAGE_GONE);
    return p;
  }

  // Settings kept beside the index.

  getEmbedder(): Embedder | undefined {
    return this.q((db) => readEmbedder(db, EMBEDDER));
  }

  setEmbedder(e: Embedder | undefined): void {
    this.q((db) => writeEmbedder(db, EMBEDDER, e));
  }

  getNextEmbedder(): Embedder | undefined {
    return this.q((db) => readEmbedder(db, NEXT_EMBEDDER));
  }

  setNextEmbedder(e: Embedder | undefined): void {
    this.q((db) => writeEmbedder(db, NEXT_EMBEDDER, e));
  }
}
