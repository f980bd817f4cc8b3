import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Download } from '@shared/contract/local-downloads';
import { AppError } from '@shared/errors';
import { hubOffError } from '@shared/hub-off';
import type { Logger } from '../../log';
import { hubParts, hubRefusal, partNames, resolveUrl, type PartInfo } from './hub-files';
import { formatBytes } from '@shared/format-bytes';
import { SpeedMeter } from './meter';
import { allOnDisk, checkSpace, filePath, partBytes, removePartFiles } from './disk-space';
import { fetchPart, retryCuts } from './part-fetch';
import { readManifest, recordDownload } from '../manifest';
import { QueueWriter, readQueue } from './store';

export interface DownloadsOptions {
  /** `<data dir>/models`: files go to `<dir>/<repo>/<file>`; the manifest of verified downloads sits beside them. */
  dir: string;
  /** The Hub endpoint (HF_ENDPOINT / Settings). */
  endpoint: () => string;
  /** The key-bound fetch: it puts the HF token on requests to the Hub endpoint only, never after a redirect away. */
  fetch: typeof fetch;
  log: Logger;
  /** Told when a download is verified and usable (the library rescans). */
  onDone?: (d: Download) => void;
  /** Free bytes on the disk holding `dir` (tests: a full disk). */
  freeBytes?: (dir: string) => Promise<number>;
  /** How many downloads run at once; the rest wait in the queue. */
  concurrency?: number;
  /** Tries again after a connection cut this many times without progress before failing (default 4). */
  retries?: number;
  /** The first wait before trying again, doubled each time (default 1 s). */
  retryDelayMs?: number;
  /** Whether the user allows live Hub access (Settings → Hub access): nothing is fetched without it. */
  enabled?: () => boolean;
  /** The wait for each of the Hub's file-list answers and the HEAD (default 30 s; tests: less). */
  hubTimeoutMs?: number;
}

const OFF = 'Live Hub access is off: choose "Use the Hub" in Settings → Hub access to download models.';

const ACTIVE = new Set(['queued', 'downloading', 'verifying']);

interface Job {
  d: Download;
  parts: PartInfo[];
  ctrl?: AbortController;
  running?: Promise<void>;
  meter: SpeedMeter;
}

/** The download queue: Range requests with pause and resume, split files together, sha256 checked before use. */
export class Downloads {
  private jobs: Job[];
  private listeners = new Set<() => void>();
  private disposed = false;
  private lastEmit = 0;
  private trailing?: ReturnType<typeof setTimeout>;
  private readonly queue: QueueWriter;
  private readonly starting = new Map<string, Promise<Download>>();

  constructor(private readonly opts: DownloadsOptions) {
    this.queue = new QueueWriter(opts.dir, opts.log);
    // What was running when the app stopped comes back paused, with the bytes its `.part` files hold.
    this.jobs = readQueue(opts.dir, opts.log).map(({ d, parts }) => {
      const job: Job = { d: { ...d }, parts, meter: new SpeedMeter() };
      if (ACTIVE.has(d.state)) job.d.state = 'paused';
      if (job.d.state !== 'done') job.d.receivedBytes = this.bytesOnDisk(job);
      return job;
    });
  }

  list(): Download[] {
    return this.jobs.map((j) => this.view(j));
  }

  /** Queues a file (every part of a split one); the same file asked twice at once is looked up once. */
  start(req: { repo: string; file: string; revision?: string }): Promise<Download> {
    const key = `${req.repo}/${req.revision ?? 'main'}/${partNames(req.file)[0]}`;
    const running = this.starting.get(key);
    if (running) return running;
    const p = this.queueFile(req).finally(() => this.starting.delete(key));
    this.starting.set(key, p);
    return p;
  }

  private async queueFile(req: { repo: string; file: string; revision?: string }): Promise<Download> {
    this.allowed();
    const { repo } = req;
    const revision = req.revision ?? 'main';
    const first = partNames(req.file)[0];
    const same = (j: Job) => j.d.repo === repo && j.d.files[0] === first && j.d.revision === revision;
    const live = this.jobs.find((j) => same(j) && (ACTIVE.has(j.d.state) || j.d.state === 'paused'));
    if (live) return this.view(live);

    const { fetch, log, dir } = this.opts;
    const endpoint = this.opts.endpoint();
    const timeoutMs = this.opts.hubTimeoutMs;
    const parts = await hubParts({ fetch, endpoint, repo, revision, file: req.file, timeoutMs });
    const files = parts.map((p) => p.file);
    const total = parts.reduce((n, p) => n + p.size, 0);
    const now = new Date().toISOString();
    const base = { repo, revision, file: req.file, files, totalBytes: total, bytesPerSecond: 0, createdAt: now };

    const known = readManifest(dir, log).files[`${repo}/${first}`];
    if (known && allOnDisk(dir, repo, parts) && known.sha256.join() === parts.map((p) => p.sha256).join()) {
      const done = this.jobs.find((j) => same(j) && j.d.state === 'done');
      if (done) return this.view(done);
      const d: Download = {
        ...base,
        id: randomUUID(),
        state: 'done',
        receivedBytes: total,
        modelId: `${repo}/${first}`,
      };
      return this.add({ d, parts, meter: new SpeedMeter() });
    }

    const job: Job = {
      d: { ...base, id: randomUUID(), state: 'queued', receivedBytes: 0 },
      parts,
      meter: new SpeedMeter(),
    };
    job.d.receivedBytes = this.bytesOnDisk(job);
    await this.checkSpace(total - job.d.receivedBytes);
    // A finished, failed or cancelled try of the same file gives way to the new one.
    this.jobs = this.jobs.filter((j) => !same(j));
    this.add(job);
    this.pump();
    return this.view(job);
  }

  async pause(id: string): Promise<Download> {
    const job = this.job(id);
    if (ACTIVE.has(job.d.state)) await this.stop(job, 'paused');
    return this.view(job);
  }

  async resume(id: string): Promise<Download> {
    const job = this.job(id);
    if (job.d.state !== 'paused' && job.d.state !== 'failed') return this.view(job);
    this.allowed();
    await this.checkSpace(job.d.totalBytes - this.bytesOnDisk(job));
    this.set(job, { state: 'queued', error: undefined, checksumMismatch: undefined });
    this.pump();
    return this.view(job);
  }

  /** "Delete and download again": a failed download's files (any part) deleted, then fetched from the first byte. */
  async restart(id: string): Promise<Download> {
    const job = this.job(id);
    if (job.d.state !== 'failed') return this.view(job);
    await this.removeParts(job);
    this.set(job, { receivedBytes: 0, checksumMismatch: undefined });
    return this.resume(id);
  }

  async cancel(id: string): Promise<Download> {
    const job = this.job(id);
    if (job.d.state === 'done' || job.d.state === 'cancelled') return this.view(job);
    await this.stop(job, 'cancelled');
    await this.removeParts(job);
    this.set(job, { receivedBytes: 0 });
    return this.view(job);
  }

  dismiss(id: string): Download[] {
    const job = this.job(id);
    if (ACTIVE.has(job.d.state) || job.d.state === 'paused')
      throw new AppError('conflict', 'Cancel the download first: it is still in the queue.');
    // A failed one leaves its partial files: nothing could resume them once it is off the list.
    if (job.d.state === 'failed') void this.removeParts(job);
    this.jobs = this.jobs.filter((j) => j !== job);
    this.changed(true);
    return this.list();
  }

  /** Calls `fn` after each change to the list; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Pauses what runs (its partial files stay, to resume at the next start). */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.trailing);
    await Promise.all(this.jobs.filter((j) => ACTIVE.has(j.d.state)).map((j) => this.stop(j, 'paused')));
    await this.queue.flushed();
  }

  private allowed(): void {
    if (this.opts.enabled && !this.opts.enabled()) throw hubOffError(OFF);
  }

  private job(id: string): Job {
    const j = this.jobs.find((x) => x.d.id === id);
    if (!j) throw new AppError('not_found', 'That download is no longer in the list.');
    return j;
  }

  private view(j: Job): Download {
    const speed = j.d.state === 'downloading' ? j.meter.bytesPerSecond() : 0;
    const left = j.d.totalBytes - j.d.receivedBytes;
    return { ...j.d, bytesPerSecond: speed, etaSeconds: speed > 0 ? Math.ceil(left / speed) : undefined };
  }

  private add(job: Job): Download {
    this.jobs.push(job);
    this.changed(true);
    return this.view(job);
  }

  private set(job: Job, patch: Partial<Download>): void {
    job.d = { ...job.d, ...patch };
    this.changed(true);
  }

  /** Tells the listeners; a state change is also written to the queue file. Progress: every 50 ms, and the last. */
  private changed(persist: boolean): void {
    const now = performance.now();
    if (!persist && now - this.lastEmit < 50) {
      // A timer may fire a little before 50 ms have passed by performance.now() (libuv's clock is read once per loop
      // turn): it is cleared first, so a still-early one arms the next instead of leaving the last progress unsaid.
      this.trailing ??= setTimeout(() => {
        this.trailing = undefined;
        this.changed(false);
      }, 50);
      return;
    }
    clearTimeout(this.trailing);
    this.trailing = undefined;
    this.lastEmit = now;
    if (persist) this.queue.save(this.jobs.map(({ d, parts }) => ({ d, parts })));
    for (const fn of this.listeners) fn();
  }

  private path(repo: string, file: string): string {
    return filePath(this.opts.dir, repo, file);
  }

  private bytesOnDisk(job: Job): number {
    return partBytes(this.opts.dir, job.d.repo, job.parts);
  }

  private async checkSpace(needed: number): Promise<void> {
    await checkSpace(this.opts.dir, needed, this.opts.freeBytes);
  }

  private pump(): void {
    if (this.disposed) return;
    const limit = this.opts.concurrency ?? 1;
    for (const job of this.jobs) {
      if (this.jobs.filter((j) => j.running).length >= limit) return;
      if (job.d.state !== 'queued' || job.running) continue;
      job.ctrl = new AbortController();
      job.meter.reset();
      this.set(job, { state: 'downloading' });
      job.running = this.run(job, job.ctrl.signal).finally(() => {
        job.running = undefined;
        job.ctrl = undefined;
        this.pump();
      });
    }
  }

  /** Sets the state first, so the run sees it was stopped on purpose, then waits for its files to be closed. */
  private async stop(job: Job, state: 'paused' | 'cancelled'): Promise<void> {
    this.set(job, { state });
    job.ctrl?.abort(new AppError('aborted', `The download was ${state}.`));
    await job.running;
  }

  private async run(job: Job, signal: AbortSignal): Promise<void> {
    const { repo, revision } = job.d;
    try {
      const sums: string[] = [];
      let before = 0;
      for (const part of job.parts) {
        const at = this.path(repo, part.file);
        mkdirSync(dirname(at), { recursive: true });
        sums.push(await this.withRetries(job, signal, before, part, at));
        before += part.size;
      }
      this.set(job, { state: 'verifying' });
      const bad = job.parts.filter((p, i) => sums[i] !== p.sha256);
      if (bad.length) {
        // Every part goes: resuming from the good ones would only fetch the same bad bytes onto them again.
        await this.removeParts(job);
        job.d.checksumMismatch = true;
        throw new AppError(
          'upstream',
          `The file's checksum does not match the Hub's (sha256 ${bad[0].sha256.slice(0, 12)}…): the copy was deleted. Download it again; if it fails the same way, the Hub is serving bytes other than the file it lists.`,
        );
      }
      // Only now do the files take their .gguf names: nothing half-written or unchecked looks usable.
      for (const p of job.parts) await rename(`${this.path(repo, p.file)}.part`, this.path(repo, p.file));
      const first = job.parts[0].file;
      const downloadedAt = new Date().toISOString();
      recordDownload(this.opts.dir, this.opts.log, {
        ...{ repo, revision, file: first, parts: job.parts.map((p) => p.file) },
        ...{ sha256: job.parts.map((p) => p.sha256), size: job.d.totalBytes, downloadedAt },
      });
      this.set(job, { state: 'done', receivedBytes: job.d.totalBytes, modelId: `${repo}/${first}` });
      this.opts.log.info('download verified', { repo, file: first, bytes: job.d.totalBytes });
      this.opts.onDone?.(this.view(job));
    } catch (e) {
      if (signal.aborted) return;
      const error =
        e instanceof AppError ? e : new AppError('internal', `The download failed: ${(e as Error).message}`);
      if (job.d.state === 'verifying') this.set(job, { receivedBytes: this.bytesOnDisk(job) });
      this.opts.log.warn('download failed', { repo, file: job.d.file, reason: error.message });
      this.set(job, { state: 'failed', error: error.toJSON() });
    }
  }

  /** One part, tried again with Range after a cut (waiting longer each time) while it keeps failing to progress. */
  private withRetries(job: Job, signal: AbortSignal, before: number, part: PartInfo, at: string): Promise<string> {
    const { repo, revision } = job.d;
    const url = resolveUrl(this.opts.endpoint(), repo, revision, part.file);
    const attempt = () =>
      fetchPart({
        ...{ url, path: `${at}.part`, size: part.size, fetch: this.opts.fetch, signal },
        refuse: (res) => hubRefusal(res, repo, part.file, revision, true),
        onProgress: (have) => {
          job.d.receivedBytes = before + have;
          job.meter.add(job.d.receivedBytes);
          this.changed(false);
        },
      });
    const got = () => `${formatBytes(job.d.receivedBytes)} of ${formatBytes(job.d.totalBytes)}`;
    return retryCuts({
      ...{ attempt, signal, retries: this.opts.retries ?? 4, delayMs: this.opts.retryDelayMs ?? 1000 },
      progress: () => job.d.receivedBytes,
      stopped: (why) => new AppError('unavailable', `The download stopped at ${got()}: ${why}.`),
      onRetry: (failures) =>
        this.opts.log.info('download cut; trying again', { file: part.file, at: job.d.receivedBytes, failures }),
    });
  }

  private removeParts(job: Job): Promise<void> {
    return removePartFiles(this.opts.dir, job.d.repo, job.parts);
  }
}
