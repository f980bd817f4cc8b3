import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A `.gguf` file found under a root, symlinks followed (the HF cache's snapshots are symlinks into `blobs/`). */
export interface FoundFile {
  path: string;
  /** The path below the root, `/`-separated. */
  rel: string;
  /** Where a symlink leads (the HF cache blob); the path itself otherwise. */
  real: string;
  size: number;
  mtimeMs: number;
}

/**
 * Every `.gguf` file under `root`, at most `maxDepth` folders down. Symlinked folders are followed once each (by
 * real path), so a link loop ends; broken links and unreadable folders are skipped. `.part` files never match.
 */
export async function findGgufs(root: string, maxDepth: number): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  const seen = new Set<string>();
  async function visit(dir: string, rel: string, depth: number): Promise<void> {
    let real: string;
    try {
      real = await realpath(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      let info;
      try {
        info = await stat(path);
      } catch {
        continue;
      }
      if (info.isDirectory()) {
        if (depth < maxDepth) await visit(path, relPath, depth + 1);
      } else if (info.isFile() && /\.gguf$/i.test(name)) {
        const link = (await lstat(path)).isSymbolicLink();
        out.push({
          path,
          rel: relPath,
          real: link ? await realpath(path) : path,
          size: info.size,
          mtimeMs: info.mtimeMs,
        });
      }
    }
  }
  await visit(root, '', 0);
  return out;
}

/** Whether a path is an existing folder. */
export async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
