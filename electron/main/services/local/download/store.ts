import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Download } from '@shared/contract/local';
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
      d: z.record(z.string(), z.unknown()),
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

export function writeQueue(dir: string, downloads: QueuedDownload[]): void {
  writeFileAtomic(join(dir, QUEUE_FILE), JSON.stringify({ version: 1, downloads }, null, 1));
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
