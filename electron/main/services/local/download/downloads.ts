import { randomUUID } from 'node:crypto';
import type { Download } from '@shared/contract/local-downloads';
import { AppError } from '@shared/errors';
import { hubOffError } from '@shared/hub-off';
import { hubParts, partNames } from './hub-files';
import { SpeedMeter } from './meter';
import { allOnDisk, checkSpace, partBytes, removePartFiles } from './disk-space';
import { DownloadRun, type Job, type RunOptions } from './download-run';
import { readManifest } from '../manifest';
import { QueueWriter, readQueue } from './store';

export interface DownloadsOptions extends RunOptions {
  /** Free bytes on the disk holding `dir` (tests: a full disk). */
  freeBytes?: (dir: string) => Promise<number>;
  /** Whether the user allows live Hub access (Settings → Hub access): nothing is fetched without it. */
  enabled?: () => boolean;
  /** The wait for each of the Hub's file-list answers and the HEAD (default 30 s; tests: less). */
  hubTimeoutMs?: number;
}

const OFF = 'Live Hub access is off: choose "Use the Hub" in Settings → Hub access to download models.';

const ACTIVE = new Set(['queued', 'downloading', 'verifying']);

/** The download queue: Range requests with pause and resume, split files together, sha256 checked before use. */
export class Downloads {
  private jobs: Job[];
  private listeners = new Set<() => void>();
  private disposed = false;
  private lastEmit = 0;
  private trailing?: ReturnType<typeof setTimeout>;
  private readonly queue: QueueWriter;
  private readonly starting = new Map<string, Promise<Download>>();
  private readonly run: DownloadRun;

  constructor(private readonly opts: DownloadsOptions) {
    this.queue = new QueueWriter(opts.dir, opts.log);
    // What was running when the app stopped comes back paused, with the bytes its `.part` files hold.
    this.jobs = readQueue(opts.dir, opts.log).map(({ d, parts }) => {
      const job: Job = { d: { ...d }, parts, meter: new SpeedMeter() };
      if (ACTIVE.has(d.state)) job.d.state = 'paused';
      if (job.d.state !== 'done') job.d.receivedBytes = this.bytesOnDisk(job);
      return job;
    });
    this.run = new DownloadRun(opts, {
      jobs: () => this.jobs,
      disposed: () => this.disposed,
      set: (job, patch) => this.set(job, patch),
      changed: (persist) => this.changed(persist),
      view: (job) => this.view(job),
      bytesOnDisk: (job) => this.bytesOnDisk(job),
      removeParts: (job) => this.removeParts(job),
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
    this.run.pump();
    return this.view(job);
  }

  async pause(id: string): Promise<Download> {
    const job = this.job(id);
    if (ACTIVE.has(job.d.state)) await this.run.stop(job, 'paused');
    return this.view(job);
  }

  async resume(id: string): Promise<Download> {
    const job = this.job(id);
    if (job.d.state !== 'paused' && job.d.state !== 'failed') return this.view(job);
    this.allowed();
    await this.checkSpace(job.d.totalBytes - this.bytesOnDisk(job));
    this.set(job, { state: 'queued', error: undefined, checksumMismatch: undefined });
    this.run.pump();
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
    await this.run.stop(job, 'cancelled');
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
    await Promise.all(this.jobs.filter((j) => ACTIVE.has(j.d.state)).map((j) => this.run.stop(j, 'paused')));
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

  private bytesOnDisk(job: Job): number {
    return partBytes(this.opts.dir, job.d.repo, job.parts);
  }

  private async checkSpace(needed: number): Promise<void> {
    await checkSpace(this.opts.dir, needed, this.opts.freeBytes);
  }

  private removeParts(job: Job): Promise<void> {
    return removePartFiles(this.opts.dir, job.d.repo, job.parts);
  }
}
