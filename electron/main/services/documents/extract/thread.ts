import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError, isAppErrorShape } from '@shared/errors';
import type { Logger } from '../../log';
import { extractError } from './errors';
import type { ExtractLimits } from './limits';
import { extractReplySchema, type ExtractRequest } from './protocol';
import { readDocument, type ReadDocument } from './read';

export interface ExtractThreadOptions {
  log: Logger;
  /**
   * The built worker entry (main's entries pass the one beside them); else HUBDESK_EXTRACT_WORKER (the tests: vitest
   * runs main from its sources, so they build it).
   */
  entry?: string;
  /** How long one file may take, and the worker's heap (tests pass lower ones). */
  timeoutMs?: number;
  heapMb?: number;
  limits?: Partial<ExtractLimits>;
}

/** Long enough for a 2,000-page PDF on a slow machine; a page tree or a table built to hang gives up here. */
const TIMEOUT_MS = 60_000;
/** Room for pdf.js on a large PDF; a zip bomb that lies about its sizes runs out here. */
const HEAP_MB = 1024;

/**
 * Reads (extracts and chunks) documents on one worker thread, one file at a time, reused across files: each file has a time limit and the
 * thread a heap cap. A file past either ends the thread (the next file starts a new one) and fails in words; main's
 * event loop never runs an extractor.
 */
export class ExtractThread {
  private worker?: Worker;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private readonly entry?: string;
  private inline = false;
  /** Workers ended by `close`: the file they were reading is not at fault. */
  private readonly closed = new WeakSet<Worker>();

  constructor(private readonly opts: ExtractThreadOptions) {
    this.entry = opts.entry ?? process.env.HUBDESK_EXTRACT_WORKER;
  }

  /**
   * The file's passages, or its AppError (`invalid_input` with `details: { file, reason }`). `signal` (Stop on the
   * base) ends the reading: the worker is ended and the file fails as `aborted`.
   */
  read(file: string, signal?: AbortSignal): Promise<ReadDocument> {
    const run = this.queue.then(() => this.run(file, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the worker; a file it was reading fails as `aborted` (not the file's fault: it is read again later). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (!w) return;
    this.closed.add(w);
    await w.terminate();
  }

  private async run(file: string, signal?: AbortSignal): Promise<ReadDocument> {
    if (signal?.aborted) throw stopped();
    if (!this.inline && !(this.entry && existsSync(this.entry))) {
      // A build without the worker (a packaging mistake): documents still index, on main, and the log says why.
      this.inline = true;
      this.opts.log.warn('extraction worker missing: documents are read on main', { entry: this.entry });
    }
    if (this.inline) return readDocument(file, this.opts.limits);
    const worker = (this.worker ??= this.start(this.entry!));
    const id = this.nextId++;
    const timeoutMs = this.opts.timeoutMs ?? TIMEOUT_MS;
    return new Promise<ReadDocument>((resolve, reject) => {
      const done = () => {
        worker.unref();
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      // Ends the thread (a new one serves the next file) and fails this file with `err`.
      const fail = (err: AppError) => {
        done();
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
        reject(err);
      };
      const timer = setTimeout(
        () =>
          fail(
            extractError(
              basename(file),
              'too_slow',
              `Reading this file took more than ${Math.round(timeoutMs / 1000)} seconds, so HubDesk stopped: it does not index it.`,
            ),
          ),
        timeoutMs,
      );
      const earlier: ReadDocument['chunks'][] = [];
      const onMessage = (m: unknown) => {
        const reply = extractReplySchema.safeParse(m);
        if (!reply.success || reply.data.id !== id) return;
        const r = reply.data;
        if ('chunks' in r) return void earlier.push(r.chunks);
        done();
        if ('doc' in r) resolve({ ...r.doc, chunks: [...earlier.flat(), ...r.doc.chunks] });
        else reject(isAppErrorShape(r.error) ? AppError.from(r.error) : new AppError('internal', r.error.message));
      };
      const onError = (e: Error) => {
        const memory = (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        this.opts.log.warn('extraction worker failed', { file, message: e.message });
        fail(
          memory
            ? extractError(
                basename(file),
                'too_much_memory',
                `Reading this file needs more than the ${this.opts.heapMb ?? HEAP_MB} MB of memory HubDesk gives it: it does not index it.`,
              )
            : extractError(basename(file), 'damaged', `HubDesk could not read this file (${e.message}).`),
        );
      };
      const onExit = () =>
        fail(
          this.closed.has(worker)
            ? stopped()
            : extractError(basename(file), 'damaged', 'HubDesk stopped reading this file before it was done.'),
        );
      const onAbort = () => {
        this.closed.add(worker);
        fail(stopped());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      // Held while it reads, so a process with nothing else to do (the CLI) waits for the file.
      worker.ref();
      worker.postMessage({ id, file, limits: this.opts.limits ?? {} } satisfies ExtractRequest);
    });
  }

  private start(entry: string): Worker {
    const heap = this.opts.heapMb ?? HEAP_MB;
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: heap, maxYoungGenerationSizeMb: Math.min(64, heap / 4) },
      stdout: false,
      stderr: false,
    });
    // An idle worker never keeps the process alive (the CLI, the tests).
    worker.unref();
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    return worker;
  }
}

const stopped = () => new AppError('aborted', 'HubDesk stopped reading this file: it reads it again later.');
