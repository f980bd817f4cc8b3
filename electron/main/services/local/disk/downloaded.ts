import { readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import type { Logger } from '../../log';
import { forgetDownloads, manifestParts, type ManifestEntry } from '../manifest';
import type { Candidate } from './candidates';
import { repoFrom } from './folders';
import { findGgufs } from './walk';

/**
 * HubDesk's downloads, `<dir>/<org>/<name>/<file>`. Files the manifest does not list (a crash between the rename and
 * the manifest write, or a file copied in by hand) are shown with a problem, never offered to load; `.part` files
 * (downloads under way) are not GGUFs to the walk and never listed.
 */
export async function scanDownloads(dir: string, log: Logger): Promise<Candidate[]> {
  const known = manifestParts(dir, log);
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
    verified: !!entry && entry.size === sizes.get(entry),
    problem: entry ? undefined : 'HubDesk did not finish verifying this download: delete it and download it again',
  }));
}

/** Deletes the files, drops their manifest entries and removes the repo folders left empty (never `dir` itself). */
export async function deleteDownloaded(dir: string, log: Logger, paths: string[]): Promise<void> {
  for (const p of paths) await rm(p, { force: true });
  const rels = new Set(paths.map((p) => relative(dir, p).split(sep).join('/')));
  forgetDownloads(dir, log, rels);
  for (const p of paths) {
    let d = dirname(p);
    while (d !== dir && d.startsWith(dir + sep)) {
      if ((await readdir(d).catch(() => ['?'])).length > 0) break;
      await rmdir(d).catch(() => {});
      d = dirname(d);
    }
  }
}
