import { isAbsolute } from 'node:path';
import type { DocTarget, Embedder, KnowledgeBase, Passage, SearchHit } from '@shared/contract/documents';
import { AppError } from '@shared/errors';
import type { StreamContext } from '../stream-context';
import { DocAttachments, type AttachmentsOptions } from './attachments';
import { baseView } from './base-view';
import { chooseEmbedder } from './choose-embedder';
import type { EmbedFn } from './embedder';
import { switchEmbedder } from './embedder-switch';
import { ExtractThread, type ExtractThreadOptions } from './extract/thread';
import { basesWithSources, Indexer } from './indexer';
import { embedderKey, type DocIndexPort, type RetrievalPort } from './ports';
import { hasDocuments, retrieval } from './retrieve';

/** Desktop only: main's open dialog picks files (or a folder); undefined when the user cancels. */
export type OpenDialogPort = (opts: { folder: boolean }) => Promise<string[] | undefined>;

/** What the service takes: what its attachments take (the index, the log, where uploads go…) and the rest. */
export interface DocumentsOptions extends Omit<AttachmentsOptions, 'indexer'> {
  embed: EmbedFn;
  /** The embedding models installed, for indexing to take one when none was chosen (choose-embedder.ts). */
  installed?: () => Promise<Embedder[]>;
  openDialog?: OpenDialogPort;
  /** Tests: chunks per embed call. */
  batch?: number;
  /** Tests: the extraction worker's limits (lower, so hostile inputs stay small), time limit and heap. */
  extract?: Omit<ExtractThreadOptions, 'log'>;
}

/** The most `docs.watch` events a second: progress moves on every batch, the page needs a few a second. */
const WATCH_EVERY_MS = 200;

type Base = { base: KnowledgeBase };

/** Every `docs.*` call, and retrieval for replies: bases, attachments, the background indexing, search. */
export class DocumentsService implements RetrievalPort {
  readonly indexer: Indexer;
  readonly retrieve: RetrievalPort['retrieve'];
  private readonly attachments: DocAttachments;
  private readonly reader: ExtractThread;
  private started?: Promise<void>;

  constructor(private readonly opts: DocumentsOptions) {
    this.reader = new ExtractThread({ ...opts.extract, log: opts.log });
    this.indexer = new Indexer({
      index: opts.index,
      embed: opts.embed,
      log: opts.log,
      batch: opts.batch,
      ...(opts.installed ? { choose: async () => chooseEmbedder(await opts.installed!()) } : {}),
      read: (file, signal) => this.reader.read(file, signal),
    });
    this.attachments = new DocAttachments({ ...opts, indexer: this.indexer });
    this.retrieve = async (q, signal) => {
      await this.start();
      return retrieval({ index: opts.index, indexer: this.indexer, embed: opts.embed, log: opts.log })(q, signal);
    };
  }

  has(conversation: string, bases: string[]): boolean {
    return hasDocuments(this.index, conversation, bases);
  }

  private get index(): DocIndexPort {
    return this.opts.index;
  }

  /**
   * Picks up where the last run stopped: folders are synced with what changed while HubDesk was closed and
   * watched, and every base with documents not `ready` goes on indexing. Runs once, on the first call.
   */
  start(): Promise<void> {
    // Set before any of it runs: what it wakes may call back in here.
    return (this.started ??= Promise.resolve()
      .then(async () => {
        await this.attachments.syncAll();
        this.indexer.recoverInterrupted();
        this.indexer.resumeAll(basesWithSources(this.index));
      })
      .catch((e: unknown) => {
        // Tried again on the next call (the database was busy, say).
        this.started = undefined;
        throw e;
      }));
  }

  async bases(conversation?: string): Promise<{ bases: KnowledgeBase[]; embedder?: Embedder }> {
    await this.start();
    const embedder = this.index.getEmbedder();
    return { bases: this.index.bases({ conversation }).map((b) => this.view(b)), ...(embedder ? { embedder } : {}) };
  }

  async createBase(name: string): Promise<Base> {
    await this.start();
    return this.baseOut(this.index.createBase(name));
  }

  async renameBase(id: string, name: string): Promise<Base> {
    this.must(id);
    this.index.renameBase(id, name);
    return this.baseOut(id);
  }

  async deleteBase(id: string): Promise<{ deleted: true }> {
    this.must(id);
    this.indexer.cancel(id);
    for (const s of this.index.sources().filter((s) => s.base === id)) await this.attachments.drop(s.id);
    this.index.deleteBase(id);
    this.indexer.forget(id);
    this.indexer.notify();
    return { deleted: true };
  }

  async attachPath(target: DocTarget, path: string): Promise<Base> {
    await this.start();
    if (!isAbsolute(path)) throw new AppError('invalid_input', `Give the full path of the file or folder (${path}).`);
    const kind = await this.attachments.kindOf(path);
    const base = this.baseOf(target);
    await this.attachments.attachPath(base, kind, path);
    return this.baseOut(base);
  }

  async attachPick(target: DocTarget, folder: boolean): Promise<{ base?: KnowledgeBase }> {
    if (!this.opts.openDialog)
      throw new AppError('unavailable', 'Pick files from the browser here: drag them in, or use Attach.');
    const paths = await this.opts.openDialog({ folder });
    if (!paths?.length) return {};
    let out: Base | undefined;
    for (const p of paths) out = await this.attachPath(target, p);
    return out ?? {};
  }

  uploadPart(upload: string | undefined, data: string): Promise<{ upload: string }> {
    return this.attachments.part(upload, data);
  }

  async attachUpload(target: DocTarget, upload: string, name: string): Promise<Base> {
    await this.start();
    const base = this.baseOf(target);
    await this.attachments.attachUpload(base, upload, name);
    return this.baseOut(base);
  }

  async remove(source: string): Promise<Base> {
    const s = this.index.sources().find((x) => x.id === source);
    if (!s) throw new AppError('not_found', 'This attachment was already removed.');
    await this.attachments.drop(source);
    return this.baseOut(s.base);
  }

  pin(document: string, pinned: boolean): Base {
    const row = this.index.document(document);
    if (!row) throw new AppError('not_found', 'This document is no longer attached.');
    this.index.upsertDocument({ ...row, pinned });
    return this.baseOut(row.base);
  }

  cancel(base: string): Base {
    this.must(base);
    this.indexer.cancel(base);
    return this.baseOut(base);
  }

  resume(base: string): Base {
    this.must(base);
    this.indexer.resume(base);
    return this.baseOut(base);
  }

  /** The embedding model for every base (see switchEmbedder). */
  async setEmbedder(e: Embedder): Promise<{ embedder: Embedder }> {
    await this.start();
    switchEmbedder(this.index, this.indexer, this.opts.log, e);
    return { embedder: e };
  }

  /** The bases at once, then on each change (a few a second at most), until the caller stops listening. */
  async watch(
    conversation: string | undefined,
    ctx: StreamContext<{ bases: KnowledgeBase[] }>,
  ): Promise<{ ended: true }> {
    const send = async () => ctx.emit({ bases: (await this.bases(conversation)).bases });
    await send();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const off = this.indexer.onChange(() => {
      timer ??= setTimeout(
        () => {
          timer = undefined;
          last = Date.now();
          if (!ctx.signal.aborted) void send().catch(() => undefined);
        },
        Math.max(0, last + WATCH_EVERY_MS - Date.now()),
      );
    });
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    off();
    if (timer) clearTimeout(timer);
    return { ended: true };
  }

  passage(chunk: number): Passage {
    return this.index.passage(chunk);
  }

  /** Hybrid search as a reply's retrieval does it (words only while no embedding model answers). */
  async search(bases: string[], query: string, limit: number): Promise<{ hits: SearchHit[] }> {
    await this.start();
    const embedder = this.index.getEmbedder();
    const vector = embedder ? (await this.opts.embed(embedder, [query]))[0] : undefined;
    return { hits: this.index.search(bases, query, vector, embedder && embedderKey(embedder), limit) };
  }

  async dispose(): Promise<void> {
    for (const b of this.started ? basesWithSources(this.index) : []) this.indexer.cancel(b);
    await this.attachments.close();
    // Before waiting for the queues: a file being read (up to its time limit) is put back in the queue at once.
    await this.reader.close();
    await this.indexer.idle();
  }

  private baseOf(target: DocTarget): string {
    if ('conversation' in target) return this.index.conversationBase(target.conversation);
    this.must(target.base);
    return target.base;
  }

  private must(base: string): KnowledgeBase {
    const b = this.index.bases({ ids: [base] })[0];
    if (!b) throw new AppError('not_found', 'This knowledge base was deleted.');
    return b;
  }

  /** A base after a change made by a call: its answer, and every docs.watch is told. */
  private baseOut(id: string): Base {
    this.indexer.notify();
    return { base: this.view(this.must(id)) };
  }

  private view(b: KnowledgeBase): KnowledgeBase {
    return baseView(b, this.index, this.indexer);
  }
}
