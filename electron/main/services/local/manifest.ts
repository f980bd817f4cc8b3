import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write';
import { keepReadable } from '../fs/readable-rows';
import type { Logger } from '../log';

// The record of verified downloads, `<data dir>/models/.hubdesk-downloads.json`: the downloader adds an entry once a
// file's sha256 matched the Hub's; the library reads it to mark files as HubDesk's own (deletable) and verified, and
// drops entries when it deletes their files. One schema, one reader, one writer.

const FILE = '.hubdesk-downloads.json';

const entrySchema = z.object({
  repo: z.string(),
  revision: z.string(),
  /** The first (or only) part. */
  file: z.string(),
  /** Every part's path in the repo, in order. */
  parts: z.array(z.string()),
  sha256: z.array(z.string()),
  /** All parts together. */
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  downloadedAt: z.string(),
});
export type ManifestEntry = z.infer<typeof entrySchema>;

// The file's frame only: each entry is checked on its own, so one bad entry leaves the others verified.
const frameSchema = z.object({ version: z.literal(1), files: z.record(z.string(), z.unknown()) });
const keyedEntrySchema = z.tuple([z.string(), entrySchema]);
interface Manifest {
  version: 1;
  files: Record<string, ManifestEntry>;
}

export function readManifest(dir: string, log: Logger): Manifest {
  const path = join(dir, FILE);
  let files: Record<string, unknown> = {};
  try {
    if (existsSync(path)) files = frameSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).files;
  } catch (e) {
    log.warn('download manifest unreadable; downloads shown as unverified', { reason: String(e) });
  }
  const rows = Object.entries(files).map(([key, entry]): [string, unknown] => [key, [key, entry]]);
  return {
    version: 1,
    files: Object.fromEntries(keepReadable(rows, keyedEntrySchema, log, 'download manifest entry')),
  };
}

const write = (dir: string, m: Manifest) => writeFileAtomic(join(dir, FILE), JSON.stringify(m, null, 1));

/** Adds (or replaces) a verified download: read, changed and written at once, atomically. */
export function recordDownload(dir: string, log: Logger, entry: ManifestEntry): void {
  const m = readManifest(dir, log);
  m.files[`${entry.repo}/${entry.file}`] = entry;
  write(dir, m);
}

/** Drops the entries holding any of these `<repo>/<part>` paths (their files were deleted). */
export function forgetDownloads(dir: string, log: Logger, repoPaths: Set<string>): void {
  const m = readManifest(dir, log);
  const kept = Object.entries(m.files).filter(([, e]) => !e.parts.some((p) => repoPaths.has(`${e.repo}/${p}`)));
  if (kept.length !== Object.keys(m.files).length) write(dir, { ...m, files: Object.fromEntries(kept) });
}

/** `<repo>/<part>` → its entry, for every part of every entry. */
export function manifestParts(dir: string, log: Logger): Map<string, ManifestEntry> {
  const out = new Map<string, ManifestEntry>();
  for (const e of Object.values(readManifest(dir, log).files)) for (const p of e.parts) out.set(`${e.repo}/${p}`, e);
  return out;
}
