import { existsSync, readFileSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../fs/atomic-write';
import type { Logger } from '../../log';
import type { Candidate } from './candidates';
import { repoFrom } from './folders';
import { findGgufs } from './walk';

/** The downloader's record of verified files, `<downloadsDir>/.hubdesk-downloads.json`. */
export const MANIFEST = '.hubdesk-downloads.json';

const entrySchema = z
  .object({
    repo: z.string(),
    revision: z.string().optional(),
    file: z.string(),
    /** Every part's path in the repo (one for a single file). */
    parts: z.array(z.string()).optional(),
    sha256: z.union([z.string(), z.array(z.string())]).optional(),
    /** All parts together. */
    size: z.number().optional(),
    downloadedAt: z.string().optional(),
  })
  .passthrough();
const manifestSchema = z
  .object({ version: z.literal(1), files: z.record(z.string(), entrySchema).default({}) })
  .passthrough();
type Manifest = z.infer<typeof manifestSchema>;
export type ManifestEntry = z.infer<typeof entrySchema>;

export function readManifest(dir: string, log: Logger): Manifest {
  const file = join(dir, MANIFEST);
  try {
    if (existsSync(file)) return manifestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    log.warn('download manifest unreadable; downloads shown as unverified', { reason: String(e) });
  }
  return { version: 1, files: {} };
}

/** `<repo>/<part>` → its manifest entry, for every part of every entry. */
export function manifestParts(m: Manifest): Map<string, ManifestEntry> {
  const out = new Map<string, ManifestEntry>();
  for (const e of Object.values(m.files)) for (const p of e.parts ?? [e.file]) out.set(`${e.repo}/${p}`, e);
  return out;
}

/**
 * HubDesk's downloads, `<dir>/<org>/<name>/<file>`. Files the manifest does not list (a crash between the rename and
 * the manifest write, or a file copied in by hand) are shown with a problem, never offered to load; `.part` files
 * (downloads under way) are not GGUFs to the walk and never listed.
 */
export async function scanDownloads(dir: string, log: Logger): Promise<Candidate[]> {
  const known = manifestParts(readManifest(dir, log));
  const found = (await findGgufs(dir, 2 + 4)).map((f) => {
    const parts = f.rel.split('/');
    const repo = parts.length >= 3 ? repoFrom(parts[0], parts[1]) : undefined;
    const inRepo = repo ? parts.slice(2).join('/') : undefined;
    return { f, repo, inRepo, entry: repo && inRepo ? known.get(`${repo}/${inRepo}`) : undefined };
  });
  // Verified: listed, and the parts on disk add up to the size the downloader checked.
  const sizes = new Map<ManifestEntry, number>();
  for (const { f, entry } of found) if (entry) sizes.set(entry, (sizes.get(entry) ?? 0) + f.size);
  return found.map(({ f, repo, inRepo, entry }) => ({
    ...f,
    source: 'downloaded' as const,
    folder: dir,
    repo,
    inRepo,
    deletable: true,
    verified: !!entry && (entry.size === undefined || entry.size === sizes.get(entry)),
    problem: entry ? undefined : 'HubDesk did not finish verifying this download: delete it and download it again',
  }));
}

/** Deletes the files, drops their manifest entries and removes the repo folders left empty (never `dir` itself). */
export async function deleteDownloaded(dir: string, log: Logger, paths: string[]): Promise<void> {
  for (const p of paths) await rm(p, { force: true });
  const rels = new Set(paths.map((p) => relative(dir, p).split(sep).join('/')));
  const m = readManifest(dir, log);
  const kept = Object.entries(m.files).filter(
    ([, e]) => !(e.parts ?? [e.file]).some((p) => rels.has(`${e.repo}/${p}`)),
  );
  if (kept.length !== Object.keys(m.files).length) {
    writeFileAtomic(join(dir, MANIFEST), JSON.stringify({ ...m, files: Object.fromEntries(kept) }, null, 2));
  }
  for (const p of paths) {
    let d = dirname(p);
    while (d !== dir && d.startsWith(dir + sep)) {
      if ((await readdir(d).catch(() => ['?'])).length > 0) break;
      await rmdir(d).catch(() => {});
      d = dirname(d);
    }
  }
}
