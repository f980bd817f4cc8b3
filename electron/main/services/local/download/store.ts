import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { downloadStateSchema, type Download } from '@shared/contract/local';
import { writeFileAtomic } from '../../fs/atomic-write';
import type { Logger } from '../../log';
import type { PartInfo } from './hub-files';

// Two files beside the models: the queue (so a restart shows interrupted downloads, paused) and the manifest of
// verified downloads (the library reads it to mark files as HubDesk's own and verified).

export const QUEUE_FILE = '.hubdesk-queue.json';
export const MANIFEST_FILE = '.hubdesk-downloads.json';

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

export interface ManifestEntry {
  repo: string;
  revision: string;
  /** The first (or only) part. */
  file: string;
  parts: string[];
  sha256: string[];
  size: number;
  downloadedAt: string;
}

const manifestSchema = z.object({
  version: z.literal(1),
  files: z.record(
    z.string(),
    z.object({
      repo: z.string(),
      revision: z.string(),
      file: z.string(),
      parts: z.array(z.string()),
      sha256: z.array(z.string()),
      size: z.number(),
      downloadedAt: z.string(),
    }),
  ),
});
export type Manifest = z.infer<typeof manifestSchema>;

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

export function readManifest(dir: string, log: Logger): Manifest {
  return readJson(join(dir, MANIFEST_FILE), manifestSchema, log, { version: 1, files: {} });
}

/** Adds (or replaces) a verified download: read, changed and written at once, atomically. */
export function recordDownload(dir: string, log: Logger, entry: ManifestEntry): void {
  const m = readManifest(dir, log);
  m.files[`${entry.repo}/${entry.file}`] = entry;
  writeFileAtomic(join(dir, MANIFEST_FILE), JSON.stringify(m, null, 1));
}
