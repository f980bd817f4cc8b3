import { readdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { LocalSource } from '@shared/contract/local-models';
import { repoFrom } from './folders';
import { findGgufs, type FoundFile } from './walk';

/** One `.gguf` file found under a root, before split parts are grouped and headers read. */
export interface Candidate extends FoundFile {
  source: LocalSource;
  /** The root it was found under. */
  folder: string;
  repo?: string;
  /** The path inside the repo: the model id is `<repo>/<inRepo>`. */
  inRepo?: string;
  verified?: boolean;
  deletable: boolean;
  problem?: string;
}

/** How deep below a user's folder GGUFs are looked for. */
const FOLDER_DEPTH = 4;

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The Hugging Face cache: `models--{org}--{name}/snapshots/<rev>/<path>`, symlinks into `blobs/<sha256>`. The
 * snapshot `refs/main` names comes first, so its copy of a file wins over an older revision's (same id).
 *
 * `verified` means the link resolves to a blob in the repo's `blobs/` whose name is a 64-hex sha256: the cache names
 * LFS blobs by their sha256 and writes them as `<sha>.incomplete` until the download ends. The content is not hashed
 * during a scan (a multi-GB read); the header check still catches a file cut short.
 */
export async function scanHfCache(root: string): Promise<Candidate[]> {
  let repos: string[];
  try {
    repos = (await readdir(root)).filter((n) => n.startsWith('models--')).sort();
  } catch {
    return [];
  }
  const out: Candidate[] = [];
  for (const dir of repos) {
    const [org, ...rest] = dir.slice('models--'.length).split('--');
    const repo = rest.length ? repoFrom(org, rest.join('--')) : /^[\w.-]+$/.test(org) ? org : undefined;
    const repoDir = join(root, dir);
    let revs: string[];
    try {
      revs = (await readdir(join(repoDir, 'snapshots'))).sort();
    } catch {
      continue;
    }
    const main = (await readFile(join(repoDir, 'refs', 'main'), 'utf8').catch(() => '')).trim();
    if (revs.includes(main)) revs = [main, ...revs.filter((r) => r !== main)];
    const blobs = await realpath(join(repoDir, 'blobs')).catch(() => undefined);
    for (const rev of revs) {
      for (const f of await findGgufs(join(repoDir, 'snapshots', rev), FOLDER_DEPTH)) {
        const verified = !!blobs && dirname(f.real) === blobs && SHA256.test(basename(f.real));
        out.push({
          ...f,
          source: 'hf-cache',
          folder: root,
          repo,
          inRepo: repo ? f.rel : undefined,
          verified,
          deletable: false,
        });
      }
    }
  }
  return out;
}

/** LM Studio's layout: `<publisher>/<repo>/<file>.gguf` (deeper paths keep the first two folders as the repo). */
export async function scanLmStudio(root: string): Promise<Candidate[]> {
  return (await findGgufs(root, FOLDER_DEPTH)).map((f) => {
    const parts = f.rel.split('/');
    const repo = parts.length >= 3 ? repoFrom(parts[0], parts[1]) : undefined;
    return {
      ...f,
      source: 'lmstudio' as const,
      folder: root,
      repo,
      inRepo: repo ? parts.slice(2).join('/') : undefined,
      deletable: false,
    };
  });
}

/** A user's folder, any layout: the repo is guessed when the file sits in `<org>/<name>/` below the folder. */
export async function scanUserFolder(root: string): Promise<Candidate[]> {
  return (await findGgufs(root, FOLDER_DEPTH)).map((f) => {
    const parts = f.rel.split('/');
    const repo = parts.length >= 3 ? repoFrom(parts[parts.length - 3], parts[parts.length - 2]) : undefined;
    return {
      ...f,
      source: 'folder' as const,
      folder: root,
      repo,
      inRepo: repo ? parts[parts.length - 1] : undefined,
      deletable: false,
    };
  });
}
