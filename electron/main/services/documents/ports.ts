import type {
  DocumentInfo,
  Embedder,
  KnowledgeBase,
  Passage,
  ReplyContext,
  SearchHit,
} from '@shared/contract/documents';
import type { DocChunk, DocKind } from './types';

/**
 * The seams between the documents parts: the index (storage and search, in the chat store's libsql file), the
 * indexer (extract → chunk → embed, in the background) and retrieval for replies. Each side codes against these.
 */

/** A document's row as the indexer writes it. */
export interface DocumentRow {
  id: string;
  base: string;
  source: string;
  name: string;
  /** Absolute path of the file read (in place, or the uploaded copy). */
  file: string;
  /** Shown path: relative to the attached folder, or the file's name. */
  path: string;
  kind?: DocKind;
  sizeBytes: number;
  /** The file's modification time (ms) and size when it was indexed: a change re-indexes it. */
  mtimeMs: number;
  state: DocumentInfo['state'];
  error?: DocumentInfo['error'];
  pinned: boolean;
  pages?: number;
  tokens: number;
}

/** A chunk waiting for its vector under an embedder. */
export interface PendingChunk {
  id: number;
  document: string;
  text: string;
}

/** Storage and search: `services/documents/index-store.ts` implements it on the chat database. */
export interface DocIndexPort {
  // Bases and sources.
  createBase(name: string, conversation?: string): string;
  renameBase(id: string, name: string): void;
  deleteBase(id: string): void;
  /** The conversation's own base, created on first use. */
  conversationBase(conversation: string): string;
  /** Bases as the contract shows them (documents with their progress), named ones first by name. */
  bases(filter?: { conversation?: string; ids?: string[] }): KnowledgeBase[];
  addSource(base: string, kind: 'file' | 'folder' | 'upload', path: string): string;
  removeSource(id: string): { base: string; uploads: string[] };
  sources(): { id: string; base: string; kind: 'file' | 'folder' | 'upload'; path: string }[];

  // Documents and chunks.
  upsertDocument(row: Omit<DocumentRow, 'id'> & { id?: string }): string;
  document(id: string): DocumentRow | undefined;
  documents(filter: { base?: string; source?: string; state?: DocumentInfo['state'][] }): DocumentRow[];
  deleteDocument(id: string): void;
  /** Replaces a document's chunks (its vectors under every embedder go with the old ones). */
  /** The chunks from position `from` on (0: the document's earlier chunks go first). */
  putChunks(document: string, chunks: DocChunk[], from?: number): void;
  /** Chunks of these bases with no vector under `embedder` yet, in document order. */
  pendingChunks(embedder: string, bases: string[], limit: number): PendingChunk[];
  countChunks(bases: string[], embedder?: string): { total: number; embedded: number };
  /** Stores vectors (each of the embedder's dimension) in one transaction. */
  putVectors(embedder: string, dim: number, vectors: { chunk: number; vector: number[] }[]): void;
  dropEmbedder(embedder: string): void;
  chunkText(document: string): string;
  /** The document's first chunk (what a citation of a document sent whole opens), if it has chunks. */
  firstChunk(document: string): number | undefined;

  // Search.
  /** Hybrid search: vector top-k under `embedder` (when a query vector is given) and FTS5 BM25, fused (fuse.ts). */
  search(
    bases: string[],
    query: string,
    queryVector: number[] | undefined,
    embedder: string | undefined,
    limit: number,
  ): SearchHit[];
  passage(chunk: number): Passage;

  // Settings kept beside the index.
  getEmbedder(): Embedder | undefined;
  setEmbedder(e: Embedder | undefined): void;
  /** The embedder a re-embed is building (the current one serves until it is complete). */
  getNextEmbedder(): Embedder | undefined;
  setNextEmbedder(e: Embedder | undefined): void;
}

/** An embedder's key in the index (one vector table per embedder): stable for the same backend and model. */
export const embedderKey = (e: Embedder) => `${e.backend}:${e.model}`;

/** What a reply gets from the documents of its conversation (its own attachments and its named bases). */
export interface RetrievedContext {
  context: ReplyContext;
  /** The system text to send before the conversation: the numbered passages and how to cite them. */
  system: string;
}

/** Retrieval for replies: `DocumentsService` implements it; the chat's ReplyWriter calls it before each answer. */
export interface RetrievalPort {
  /**
   * Whether the conversation has anything attached (its own documents or named bases with documents): replies of
   * conversations without any skip the model-context lookup that `retrieve`'s budget needs.
   */
  has(conversation: string, bases: string[]): boolean;
  /**
   * The documents' context for a question: whole documents when they all fit `budgetTokens` (pinned ones whole
   * whenever they fit), else the top passages by hybrid search within the budget. Waits up to `waitMs` for
   * indexing in progress; what is still not read is named in `context.notIndexed`, what was searched by words
   * alone (no vectors yet) in `context.wordsOnly`. Undefined when the conversation has no documents.
   */
  retrieve(
    q: { conversation: string; bases: string[]; question: string; budgetTokens: number; waitMs?: number },
    signal?: AbortSignal,
  ): Promise<RetrievedContext | undefined>;
}
