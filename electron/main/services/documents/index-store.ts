import { type Embedder, type KnowledgeBase, type Passage, type SearchHit } from '@shared/contract/documents';
import { AppError } from '@shared/errors';
import type { ChatStore } from '../chat/storage/store';
import type { Db } from '../chat/storage/db-open';
import { buildBases, toDocumentRow } from './index-bases';
import {
  chunkSpans,
  chunkTotals,
  deleteDocumentRow,
  documentRow,
  documentRows,
  firstChunkRow,
  unembeddedChunks,
  writeChunks,
  writeDocument,
} from './index-documents';
import { joinChunks, newDocId } from './index-sql';
import { readEmbedder, readPassages, writeEmbedder } from './index-queries';
import { hybridSearch } from './index-search';
import {
  baseRows,
  conversationBaseId,
  deleteBaseRow,
  deleteSource,
  insertBase,
  insertSource,
  sourceRows,
  updateBaseName,
  type SourceKind,
} from './index-sources';
import type { DocIndexPort, DocumentRow, PendingChunk } from './ports';
import type { DocChunk } from './types';
import { dropVectorTable, ensureVectorTable, writeVectors } from './vector-table';

const PASSAGE_GONE = 'This passage is no longer in the index: its document was removed or indexed again since.';
/** The name of a conversation's own base (its attachments). */
const CONVERSATION_BASE = 'Attached to this conversation';
const EMBEDDER = 'docs.embedder';
const NEXT_EMBEDDER = 'docs.nextEmbedder';

/**
 * The documents' index (DocIndexPort) in the chat database, through the chat store's handle (opened on first use,
 * SQLite failures said as the chat store says them): tables of the documents migration, one vector table per
 * embedder, and hybrid search (libsql's vector index and FTS5 BM25, fused by reciprocal rank). Its SQL is in
 * index-sources.ts (bases and sources), index-documents.ts (documents and chunks) and index-search.ts.
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
    this.q((db) => insertBase(db, id, name, conversation));
    return id;
  }

  renameBase(id: string, name: string): void {
    this.q((db) => updateBaseName(db, id, name));
  }

  deleteBase(id: string): void {
    this.q((db) => deleteBaseRow(db, id), true);
  }

  conversationBase(conversation: string): string {
    return this.q(
      (db) => conversationBaseId(db, conversation) ?? this.createBase(CONVERSATION_BASE, conversation),
      true,
    );
  }

  bases(filter: { conversation?: string; ids?: string[] } = {}): KnowledgeBase[] {
    return this.q((db) => buildBases(db, baseRows(db, filter), this.getEmbedder(), this.getNextEmbedder()));
  }

  addSource(base: string, kind: SourceKind, path: string): string {
    const id = newDocId('s');
    this.q((db) => insertSource(db, id, base, kind, path), true);
    return id;
  }

  removeSource(id: string): { base: string; uploads: string[] } {
    return this.q((db) => deleteSource(db, id), true);
  }

  sources(): { id: string; base: string; kind: SourceKind; path: string }[] {
    return this.q((db) => sourceRows(db));
  }

  // Documents and chunks.

  upsertDocument(row: Omit<DocumentRow, 'id'> & { id?: string }): string {
    return this.q((db) => writeDocument(db, row), true);
  }

  document(id: string): DocumentRow | undefined {
    const r = this.q((db) => documentRow(db, id));
    return r && toDocumentRow(r);
  }

  documents(filter: { base?: string; source?: string; state?: DocumentRow['state'][] }): DocumentRow[] {
    const rows = this.q((db) => documentRows(db, filter));
    return rows.map(toDocumentRow);
  }

  deleteDocument(id: string): void {
    this.q((db) => deleteDocumentRow(db, id), true);
  }

  putChunks(document: string, chunks: DocChunk[], from = 0): void {
    this.q((db) => writeChunks(db, document, chunks, from), true);
  }

  pendingChunks(embedder: string, bases: string[], limit: number): PendingChunk[] {
    return this.q((db) => unembeddedChunks(db, embedder, bases, limit));
  }

  countChunks(bases: string[], embedder?: string): { total: number; embedded: number } {
    return this.q((db) => chunkTotals(db, bases, embedder));
  }

  putVectors(embedder: string, dim: number, vectors: { chunk: number; vector: number[] }[]): void {
    this.q((db) => writeVectors(db, ensureVectorTable(db, embedder, dim), vectors), true);
  }

  dropEmbedder(embedder: string): void {
    this.q((db) => dropVectorTable(db, embedder), true);
  }

  chunkText(document: string): string {
    return joinChunks(this.q((db) => chunkSpans(db, document)));
  }

  firstChunk(document: string): number | undefined {
    const r = this.q((db) => firstChunkRow(db, document));
    return r && Number(r.seq);
  }

  // Search.

  search(...[bases, ...rest]: Parameters<DocIndexPort['search']>): SearchHit[] {
    if (!bases.length) return [];
    return this.q((db) => hybridSearch(db, bases, ...rest));
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
