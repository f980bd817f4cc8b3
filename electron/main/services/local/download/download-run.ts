import { mkdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Download } from '@shared/contract/local-downloads';
import { AppError } from '@shared/errors';
import { formatBytes } from '@shared/format-bytes';
import type { Logger } from '../../log';
import { recordDownload } from '../manifest';
import { filePath } from './disk-space';
import { hubRefusal, resolveUrl, type PartInfo } from './hub-files';
import type { SpeedMeter } from './meter';
import { fetchPart, retryCuts } from './part-fetch';

/** What the run loop takes of the downloads' options. */
export interface RunOptions {
  /** `<data dir>/models`: files go to `<dir>/<repo>/<file>`; the manifest of verified downloads sits beside them. */
  dir: string;
  /** The Hub endpoint (HF_ENDPOINT / Settings). */
  endpoint: () => string;
  /** The key-bound fetch: it puts the HF token on requests to the Hub endpoint only, never after a redirect away. */
  fetch: typeof fetch;
  log: Logger;
  /** Told when a download is verified and usable (the library rescans). */
  onDone?: (d: Download) => void;
  /** How many downloads run at once; the rest wait in the queue. */
  concurrency?: number;
  /** Tries again after a connection cut this many times without progress before failing (default 4). */
  retries?: number;
  /** The first wait before trying again, doubled each time (default 1 s). */
  retryDelayMs?: number;
}

export interface Job {
  d: Download;
  parts: PartInfo[];
  ctrl?: AbortController;
  running?: Promise<void>;
  meter: SpeedMeter;
}

/** What the run loop needs of the queue: its jobs, how a change is told and saved, and their files on disk. */
interface RunQueue {
  jobs(): Job[];
  disposed(): boolean;
  set(job: Job, patch: Partial<Download>): void;
  changed(persist: boolean): void;
  view(job: Job): Download;
  bytesOnDisk(job: Job): number;
  removeParts(job: Job): Promise<void>;
}

/** The run loop: queued jobs started up to the concurrency, each part fetched with retries, then verified and named. */
export class DownloadRun {
  constructor(
    private readonly opts: RunOptions,
    private readonly queue: RunQueue,
  ) {}

  pump(): void {
    if (this.queue.disposed()) return;
    const limit = this.opts.concurrency ?? 1;
    for (const job of this.queue.jobs()) {
      if (this.queue.jobs().filter((j) => j.running).length >= limit) return;
      if (job.d.state !== 'queued' || job.running) continue;
      job.ctrl = new AbortController();
      job.meter.reset();
      this.queue.set(job, { state: 'downloading' });
      job.running = this.run(job, job.ctrl.signal).finally(() => {
        job.running = undefined;
        job.ctrl = undefined;
        this.pump();
      });
    }
  }

  /** Sets the state first, so the run sees it was stopped on purpose, then waits for its files to be closed. */
  async stop(job: Job, state: 'paused' | 'cancelled'): Promise<void> {
    this.queue.set(job, { state });
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
      this.queue.set(job, { state: 'verifying' });
      const bad = job.parts.filter((p, i) => sums[i] !== p.sha256);
      if (bad.length) {
        // Every part goes: resuming from the good ones would only fetch the same bad bytes onto them again.
        await this.queue.removeParts(job);
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
      this.queue.set(job, { state: 'done', receivedBytes: job.d.totalBytes, modelId: `${repo}/${first}` });
      this.opts.log.info('download verified', { repo, file: first, bytes: job.d.totalBytes });
      this.opts.onDone?.(this.queue.view(job));
    } catch (e) {
      if (signal.aborted) return;
      const error =
        e instanceof AppError ? e : new AppError('internal', `The download failed: ${(e as Error).message}`);
      if (job.d.state === 'verifying') this.queue.set(job, { receivedBytes: this.queue.bytesOnDisk(job) });
      this.opts.log.warn('download failed', { repo, file: job.d.file, reason: error.message });
      this.queue.set(job, { state: 'failed', error: error.toJSON() });
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
          this.queue.changed(false);
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

  private path(repo: string, file: string): string {
    return filePath(this.opts.dir, repo, file);
  }
}
