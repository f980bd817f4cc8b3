import { stat } from 'node:fs/promises';
import type { Embedder } from '@shared/contract/documents';
import { AppError, toAppError } from '@shared/errors';
import type { Logger } from '../log';
import { noEmbedderError, type EmbedFn } from './embedder';
import { extractError } from './extract/errors';
import type { ReadDocument } from './extract/read';
import { embedderKey, type DocIndexPort, type DocumentRow } from './ports';
import { Rates } from './rates';

export interface IndexerOptions {
  index: DocIndexPort;
  embed: EmbedFn;
  log: Logger;
  /** Extracts and chunks a file off main's event loop (`extract/thread.ts`). */
  read: (file: string, signal?: AbortSignal) => Promise<ReadDocument>;
  /** Chunks per embed call. */
  batch?: number;
  /**
   * The embedding model to take when none is set and chunks wait for vectors (choose-embedder.ts); it throws why
   * indexing cannot go on (none installed, Ollama not running, several to choose from).
   */
  choose?: () => Promise<Embedder>;
}

const BATCH = 32;

/** Passages stored per transaction: 64 keeps each under a few ms (256 measured 95 ms p99 for other calls). */
const STORE_SLICE = 64;
/**
 * The background queue: per base, one document at a time, extract → chunk → store → embed its chunks in batches.
 * Everything it has done is in the index, so after a restart (or a crash) it goes on from the documents not `ready`
 * and embeds only chunks with no vector yet. A new embedder (`getNextEmbedder`) is built beside the current one,
 * which becomes current once every chunk has its new vector.
 */
export class Indexer {
  private readonly loops = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly paused = new Set<string>();
  private readonly errors = new Map<string, AppError>();
  private readonly listeners = new Set<() => void>();
  /** The file each base is reading: Stop ends its reading at once instead of after it (up to its time limit). */
  private readonly reading = new Map<string, AbortController>();
  readonly rates = new Rates();

  constructor(private readonly opts: IndexerOptions) {}

  /** Starts (or wakes) a base's queue. */
  kick(base: string): void {
    if (this.paused.has(base)) return;
    if (this.loops.has(base)) {
      this.again.add(base);
      return;
    }
    const loop = this.run(base).finally(() => {
      this.loops.delete(base);
      if (this.again.delete(base)) this.kick(base);
      else this.notify();
    });
    this.loops.set(base, loop);
  }

  /** Stops a base's queue before its next step; what is stored stays. */
  cancel(base: string): void {
    this.paused.add(base);
    this.reading.get(base)?.abort();
    this.again.delete(base);
    this.notify();
  }

  /** Goes on where the base stopped (after a cancel or an error). */
  resume(base: string): void {
    this.paused.delete(base);
    this.errors.delete(base);
    this.kick(base);
    this.notify();
  }

  /** Clears every base's stop error and wakes them all (a new embedder, a start-up). */
  resumeAll(bases: string[]): void {
    this.errors.clear();
    for (const b of bases) this.kick(b);
    this.notify();
  }

  forget(base: string): void {
    this.paused.delete(base);
    this.errors.delete(base);
  }

  state(base: string): { paused: boolean; running: boolean; error?: AppError } {
    return { paused: this.paused.has(base), running: this.loops.has(base), error: this.errors.get(base) };
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Waits for every running queue to stop (tests, quitting). */
  async idle(): Promise<void> {
    while (this.loops.size) await Promise.allSettled([...this.loops.values()]);
  }

  /**
   * Documents a previous run left being read: HubDesk stopped (or was stopped by the file) mid-read. Each is read
   * once more; a document found mid-read a second time is not read again at launch, it waits for the person (a
   * change to the file, or attaching it again, queues it).
   */
  recoverInterrupted(): void {
    const { index } = this.opts;
    for (const row of index.documents({ state: ['extracting'] })) {
      const again = interrupted(row);
      const name = row.name;
      index.upsertDocument({
        ...row,
        state: again ? 'error' : 'queued',
        error: again
          ? extractError(
              name,
              'interrupted',
              'HubDesk stopped twice while reading this file, so it does not read it at launch: attach it again to retry.',
            ).toJSON()
          : extractError(
              name,
              'interrupted',
              'HubDesk stopped while reading this file: it reads it once more.',
            ).toJSON(),
      });
    }
  }

  /** Tells the listeners (docs.watch) that something they show changed. */
  notify(): void {
    for (const fn of this.listeners) fn();
  }

  private async run(base: string): Promise<void> {
    const { index, log } = this.opts;
    try {
      while (!this.paused.has(base)) {
        const target = index.getNextEmbedder() ?? index.getEmbedder();
        if (target && (await this.embedBatch(base, target))) continue;
        const todo = index.documents({ base, state: ['extracting', 'queued'] })[0];
        if (todo) {
          await this.extractOne(todo);
          continue;
        }
        if (!target && index.documents({ base, state: ['embedding'] }).length) {
          if (!this.opts.choose) throw noEmbedderError();
          // Attaching is enough: the installed model is taken, shown in the strip where it can be changed.
          const chosen = await this.opts.choose();
          // Another base's queue (or the person) may have set one meanwhile: theirs stays.
          if (!index.getEmbedder()) {
            index.setEmbedder(chosen);
            log.info('embedder chosen', { embedder: embedderKey(chosen) });
          }
          this.notify();
          continue;
        }
        break;
      }
      this.switchWhenComplete();
    } catch (e) {
      const err = toAppError(e);
      log.warn('indexing stopped', { base, code: err.code, message: err.message });
      this.errors.set(base, err);
    }
  }

  /** Reads and chunks one document; its failure is the document's, in words, and the queue goes on. */
  private async extractOne(row: DocumentRow): Promise<void> {
    const { index } = this.opts;
    // Registered before the row shows `extracting`: a Stop from then on ends this reading, not only the next.
    const stop = new AbortController();
    this.reading.set(row.base, stop);
    // A document read again after an interrupted run keeps that mark while it is read (see recoverInterrupted).
    index.upsertDocument({ ...row, state: 'extracting', error: interrupted(row) ? row.error : undefined });
    this.notify();
    try {
      const st = await stat(row.file);
      const doc = await this.opts.read(row.file, stop.signal);
      const chunks = doc.chunks;
      // In slices, a turn of the event loop between them: 45,000 passages in one transaction held main for seconds.
      // The document stays `extracting` until the last slice, and a run stopped midway reads it again.
      for (let from = 0; from < chunks.length || from === 0; from += STORE_SLICE) {
        if (from > 0) await new Promise((r) => setImmediate(r));
        index.putChunks(row.id, chunks.slice(from, from + STORE_SLICE), from);
      }
      index.upsertDocument({
        ...row,
        kind: doc.kind,
        pages: doc.pages,
        sizeBytes: st.size,
        mtimeMs: st.mtimeMs,
        tokens: chunks.reduce((n, c) => n + c.tokens, 0),
        state: 'embedding',
        error: undefined,
      });
    } catch (e) {
      const err = toAppError(e);
      // Stop (or quitting) ended the reading: the file is not at fault, it waits in the queue.
      if (err.code === 'aborted') return void index.upsertDocument({ ...row, state: 'queued', error: row.error });
      if (err.code === 'internal') this.opts.log.warn('document failed', { file: row.file, message: err.message });
      index.putChunks(row.id, []);
      index.upsertDocument({ ...row, state: 'error', error: err.toJSON() });
    } finally {
      this.reading.delete(row.base);
    }
    this.notify();
    await new Promise((r) => setImmediate(r));
  }

  /**
   * Embeds the next batch of the base's first document with chunks waiting; false when none is waiting (and every
   * document still `embedding` is then complete).
   */
  private async embedBatch(base: string, target: Embedder): Promise<boolean> {
    const { index } = this.opts;
    const key = embedderKey(target);
    const limit = this.opts.batch ?? BATCH;
    const pending = index.pendingChunks(key, [base], limit);
    if (!pending.length) {
      this.markReady(index.documents({ base, state: ['embedding'] }));
      return false;
    }
    const doc = pending[0].document;
    const mine = pending.filter((c) => c.document === doc);
    const since = Date.now();
    const vectors = await this.opts.embed(
      target,
      mine.map((c) => c.text),
    );
    // The embedder may have changed while the batch was out: vectors of one no longer wanted are not kept.
    const wanted = [index.getEmbedder(), index.getNextEmbedder()].some((e) => e && embedderKey(e) === key);
    if (!wanted) return true;
    index.putVectors(
      key,
      vectors[0].length,
      mine.map((c, i) => ({ chunk: c.id, vector: vectors[i] })),
    );
    this.rates.add(doc, mine.length, since);
    if (mine.length < pending.length || pending.length < limit) {
      const row = index.document(doc);
      if (row?.state === 'embedding') this.markReady([row]);
    }
    this.notify();
    await new Promise((r) => setImmediate(r));
    return true;
  }

  private markReady(rows: DocumentRow[]): void {
    for (const row of rows) {
      this.opts.index.upsertDocument({ ...row, state: 'ready' });
      this.rates.forget(row.id);
    }
  }

  /** A re-embed is complete when no chunk anywhere waits for the new embedder: it becomes current, the old goes. */
  private switchWhenComplete(): void {
    const { index, log } = this.opts;
    const next = index.getNextEmbedder();
    if (!next) return;
    const bases = basesWithSources(index);
    if (index.documents({ state: ['queued', 'extracting'] }).length) return;
    const { total, embedded } = index.countChunks(bases, embedderKey(next));
    if (embedded < total) return;
    const old = index.getEmbedder();
    index.setEmbedder(next);
    index.setNextEmbedder(undefined);
    if (old && embedderKey(old) !== embedderKey(next)) index.dropEmbedder(embedderKey(old));
    log.info('embedder switched', { from: old && embedderKey(old), to: embedderKey(next) });
    this.notify();
  }
}

const interrupted = (row: DocumentRow) =>
  (row.error?.details as { reason?: string } | undefined)?.reason === 'interrupted';

/** Every base with something attached (conversations' own ones too): where indexing work can be. */
export const basesWithSources = (index: DocIndexPort): string[] => [...new Set(index.sources().map((s) => s.base))];
