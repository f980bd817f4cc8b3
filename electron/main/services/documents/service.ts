import { isAbsolute } from 'node:path';
import type { DocTarget, Embedder, KnowledgeBase, Passage, SearchHit } from '@shared/contract/documents';
import { AppError } from '@shared/errors';
import type { Logger } from '../log';
import type { StreamContext } from '../stream-context';
import { chooseEmbedder } from './choose-embedder';
import type { EmbedFn } from './embedder';
import { ExtractThread, type ExtractThreadOptions } from './extract/thread';
import { basesWithSources, Indexer } from './indexer';
import { embedderKey, type DocIndexPort, type RetrievalPort } from './ports';
import { hasDocuments, retrieval } from './retrieve';
import { kindOf, syncSource, walk } from './sources';
import { DocUploads } from './uploads';
import { FolderWatcher } from './watcher';

/** Desktop only: main's open dialog picks files (or a folder); undefined when the user cancels. */
export type OpenDialogPort = (opts: { folder: boolean }) => Promise<string[] | undefined>;

export interface DocumentsOptions {
  index: DocIndexPort;
  embed: EmbedFn;
  /** The embedding models installed, for indexing to take one when none was chosen (choose-embedder.ts). */
  installed?: () => Promise<Embedder[]>;
  log: Logger;
  /** Where uploaded files are kept (`<dataDir>/documents/uploads`). */
  uploadsDir: string;
  openDialog?: OpenDialogPort;
  /** Tests: chunks per embed call, how long a watched folder settles, the most files a folder may hold. */
  batch?: number;
  /** Tests: the extraction worker's limits (lower, so hostile inputs stay small), time limit and heap. */
  extract?: Omit<ExtractThreadOptions, 'log'>;
  settleMs?: number;
  maxFolderFiles?: number;
}

/** The most `docs.watch` events a second: progress moves on every batch, the page needs a few a second. */
const WATCH_EVERY_MS = 200;

type Base = { base: KnowledgeBase };

/** Every `docs.*` call, and retrieval for replies: bases, attachments, the background indexing, search. */
export class DocumentsService implements RetrievalPort {
  readonly indexer: Indexer;
  readonly retrieve: RetrievalPort['retrieve'];
  private readonly uploads: DocUploads;
  private readonly watcher: FolderWatcher;
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
    this.uploads = new DocUploads(opts.uploadsDir);
    this.watcher = new FolderWatcher((source) => void this.resync(source), opts.settleMs);
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
        for (const s of this.index.sources()) {
          if (s.kind === 'folder')
            void this.watcher
              .watch(s.id, s.path)
              .catch((e: Error) => this.opts.log.warn('folder not watched', { source: s.id, message: e.message }));
          await syncSource(this.index, s, this.opts.maxFolderFiles).catch((e: Error) =>
            this.opts.log.warn('source not synced', { source: s.id, message: e.message }),
          );
        }
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
    for (const s of this.index.sources().filter((s) => s.base === id)) await this.dropSource(s.id);
    this.index.deleteBase(id);
    this.indexer.forget(id);
    this.indexer.notify();
    return { deleted: true };
  }

  async attachPath(target: DocTarget, path: string): Promise<Base> {
    await this.start();
    if (!isAbsolute(path)) throw new AppError('invalid_input', `Give the full path of the file or folder (${path}).`);
    const kind = await kindOf(path);
    // A folder too big is refused before anything is stored.
    if (kind === 'folder') await walk(path, this.opts.maxFolderFiles);
    const base = this.baseOf(target);
    const known = this.index.sources().find((s) => s.base === base && s.path === path);
    const id = known?.id ?? this.index.addSource(base, kind, path);
    // Attaching again is how a person retries what failed: its failed documents are read again (links never are).
    if (known) this.retryFailed(id);
    await syncSource(this.index, { id, base, kind, path }, this.opts.maxFolderFiles);
    this.indexer.kick(base);
    // Not awaited: chokidar's walk of a large folder would hold the answer (its `ready`).
    if (kind === 'folder')
      void this.watcher
        .watch(id, path)
        .catch((e: Error) => this.opts.log.warn('folder not watched', { source: id, message: e.message }));
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
    return this.uploads.part(upload, data);
  }

  async attachUpload(target: DocTarget, upload: string, name: string): Promise<Base> {
    await this.start();
    const base = this.baseOf(target);
    const file = await this.uploads.take(upload, name);
    const id = this.index.addSource(base, 'upload', file);
    await syncSource(this.index, { id, base, kind: 'upload', path: file });
    this.indexer.kick(base);
    return this.baseOut(base);
  }

  async remove(source: string): Promise<Base> {
    const s = this.index.sources().find((x) => x.id === source);
    if (!s) throw new AppError('not_found', 'This attachment was already removed.');
    await this.dropSource(source);
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

  /**
   * The embedding model for every base. The first one is simply set; a new one is built beside the current one
   * (which keeps serving) and replaces it when complete; choosing the current one again stops a re-embed.
   */
  async setEmbedder(e: Embedder): Promise<{ embedder: Embedder }> {
    await this.start();
    const cur = this.index.getEmbedder();
    const next = this.index.getNextEmbedder();
    if (next && embedderKey(next) !== embedderKey(e)) this.index.dropEmbedder(embedderKey(next));
    const bases = basesWithSources(this.index);
    if (!cur || !this.index.countChunks(bases, embedderKey(cur)).embedded) {
      // Nothing indexed under another model: nothing to rebuild.
      if (cur && embedderKey(cur) !== embedderKey(e)) this.index.dropEmbedder(embedderKey(cur));
      this.index.setEmbedder(e);
      this.index.setNextEmbedder(undefined);
    } else this.index.setNextEmbedder(embedderKey(cur) === embedderKey(e) ? undefined : e);
    this.indexer.resumeAll(bases);
    this.opts.log.info('embedder set', {
      embedder: embedderKey(e),
      reembed: !!cur && embedderKey(cur) !== embedderKey(e),
    });
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
    await this.watcher.close();
    // Before waiting for the queues: a file being read (up to its time limit) is put back in the queue at once.
    await this.reader.close();
    await this.indexer.idle();
  }

  private async resync(source: string): Promise<void> {
    const s = this.index.sources().find((x) => x.id === source);
    if (!s) return void (await this.watcher.unwatch(source));
    try {
      if (await syncSource(this.index, s, this.opts.maxFolderFiles)) this.indexer.kick(s.base);
    } catch (e) {
      this.opts.log.warn('folder not synced', { source, message: (e as Error).message });
    }
  }

  private retryFailed(source: string): void {
    for (const d of this.index.documents({ source, state: ['error'] }))
      if ((d.error?.details as { reason?: string } | undefined)?.reason !== 'link')
        this.index.upsertDocument({ ...d, state: 'queued', error: undefined });
  }

  private async dropSource(source: string): Promise<void> {
    await this.watcher.unwatch(source);
    const { uploads } = this.index.removeSource(source);
    for (const f of uploads) await this.uploads.remove(f);
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

  /** What the index stores, plus what only the running queue knows: speed, time left, paused, stopped. */
  private view(b: KnowledgeBase): KnowledgeBase {
    const s = this.indexer.state(b.id);
    const next = this.index.getNextEmbedder();
    const out: KnowledgeBase = {
      ...b,
      documents: b.documents.map((d) =>
        d.state === 'embedding'
          ? { ...d, ...this.indexer.rates.of(d.id, d.chunks - d.chunksDone) }
          : // Only a failed document shows an error (one read again after an interrupted run keeps a mark).
            d.state !== 'error' && d.error
            ? { ...d, error: undefined }
            : d,
      ),
    };
    if (next && !b.reembedding) {
      const { total, embedded } = this.index.countChunks([b.id], embedderKey(next));
      out.reembedding = { embedder: next, done: embedded, total };
    }
    if (s.paused) out.paused = true;
    if (s.error) out.error = s.error.toJSON();
    return out;
  }
}
