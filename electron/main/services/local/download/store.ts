import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { downloadStateSchema, type Download } from '@shared/contract/local-downloads';
import type { Logger } from '../../log';
import { keepReadable } from '../../fs/readable-rows';
import type { PartInfo } from './hub-files';

// The queue beside the models, so a restart shows interrupted downloads, paused (the verified ones are in
// ../manifest.ts).

const QUEUE_FILE = '.hubdesk-queue.json';

export interface QueuedDownload {
  d: Download;
  parts: PartInfo[];
}

const bytes = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** One row: what the list needs to show and resume it; the rest (error, modelId…) is carried as it was written. */
const rowSchema = z.object({
  d: z
    .object({
      id: z.string(),
      repo: z.string(),
      revision: z.string(),
      file: z.string(),
      files: z.array(z.string()).min(1),
      state: downloadStateSchema,
      receivedBytes: bytes,
      totalBytes: bytes,
      createdAt: z.string(),
    })
    .passthrough(),
  parts: z.array(z.object({ file: z.string(), size: bytes, sha256: z.string() })).min(1),
});

// The file's frame only: each row is checked on its own, so one bad row costs that row, not the queue.
const queueSchema = z.object({ version: z.literal(1), downloads: z.array(z.unknown()) });

export function readQueue(dir: string, log: Logger): QueuedDownload[] {
  const path = join(dir, QUEUE_FILE);
  let rows: unknown[] = [];
  try {
    if (existsSync(path)) rows = queueSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).downloads;
  } catch (e) {
    log.warn(`${path} unreadable; starting from an empty one`, { reason: String(e) });
  }
  const keyed = rows.map((r, i): [string, unknown] => [String(i), r]);
  return keepReadable(keyed, rowSchema, log, 'download list row') as unknown as QueuedDownload[];
}

/**
 * Writes the queue off the download's path: async, whole (a temp file renamed over), without an fsync — at worst a
 * power cut forgets the list, never the files. Writes are chained, and a burst of changes makes one write.
 */
export class QueueWriter {
  private latest?: QueuedDownload[];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  save(downloads: QueuedDownload[]): void {
    const idle = this.latest === undefined;
    this.latest = downloads;
    if (idle) this.writing = this.writing.then(() => this.write());
  }

  /** Resolves once what was saved is on disk. */
  flushed(): Promise<void> {
    return this.writing;
  }

  private async write(): Promise<void> {
    const downloads = this.latest!;
    this.latest = undefined;
    const path = join(this.dir, QUEUE_FILE);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(tmp, JSON.stringify({ version: 1, downloads }, null, 1), { mode: 0o600 });
      await rename(tmp, path);
    } catch (e) {
      this.log.warn('could not save the download list', { reason: String(e) });
    }
  }
}
