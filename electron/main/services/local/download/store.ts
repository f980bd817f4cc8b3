import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { downloadStateSchema, type Download } from '@shared/contract/local';
import type { Logger } from '../../log';
import type { PartInfo } from './hub-files';

// The queue beside the models, so a restart shows interrupted downloads, paused (the verified ones are in
// ../manifest.ts).

const QUEUE_FILE = '.hubdesk-queue.json';

export interface QueuedDownload {
  d: Download;
  parts: PartInfo[];
}

const queueSchema = z.object({
  version: z.literal(1),
  downloads: z.array(
    z.object({
      // What the list needs to show and resume it; the rest (error, modelId…) is carried as it was written.
      d: z
        .object({
          id: z.string(),
          repo: z.string(),
          revision: z.string(),
          file: z.string(),
          files: z.array(z.string()).min(1),
          state: downloadStateSchema,
          receivedBytes: z.number(),
          totalBytes: z.number(),
          createdAt: z.string(),
        })
        .passthrough(),
      parts: z.array(z.object({ file: z.string(), size: z.number(), sha256: z.string() })),
    }),
  ),
});

function readJson<T>(path: string, schema: z.ZodType<T>, log: Logger, fallback: T): T {
  try {
    if (existsSync(path)) return schema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (e) {
    log.warn(`${path} unreadable; starting from an empty one`, { reason: String(e) });
  }
  return fallback;
}

export function readQueue(dir: string, log: Logger): QueuedDownload[] {
  const q = readJson(join(dir, QUEUE_FILE), queueSchema, log, { version: 1, downloads: [] });
  return q.downloads as unknown as QueuedDownload[];
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
