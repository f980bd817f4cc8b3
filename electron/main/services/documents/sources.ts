import { readdir, readlink, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { AppError } from '@shared/errors';
import { extractError } from './extract/errors';
import type { DocIndexPort } from './ports';

/** The most files a folder may hold: past it, attaching is refused before any work (a subfolder can be attached). */
const MAX_FOLDER_FILES = 10_000;

/** How deep under an attached folder files are looked for (and watched): deeper ones are left out. */
export const MAX_FOLDER_DEPTH = 32;

/** The most subfolders a folder may hold (a tree of empty folders costs a walk as much as one of files). */
const MAX_FOLDER_DIRS = 10_000;

/** Folders never walked: hidden ones and what tools regenerate. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '__pycache__']);

/** Hidden files and folders, `node_modules`, `.git`: never indexed, never watched. */
export function skipped(path: string, root: string): boolean {
  const rel = relative(root, path);
  if (!rel || rel.startsWith('..')) return false;
  return rel.split(sep).some((part) => part.startsWith('.') || SKIPPED_DIRS.has(part));
}

interface Found {
  file: string;
  sizeBytes: number;
  mtimeMs: number;
  /** A symbolic link: listed, with where it points, and never followed (a loop, or a link to `/`, has no end). */
  link?: string;
}

/**
 * The files under a folder (recursively, to `MAX_FOLDER_DEPTH`, skipping hidden and tool folders). Links are listed
 * as links and never followed, to a file or a folder alike.
 */
export async function walk(root: string, max = MAX_FOLDER_FILES): Promise<Found[]> {
  const out: Found[] = [];
  const dirs = [{ dir: root, depth: 0 }];
  let folders = 0;
  while (dirs.length) {
    const { dir, depth } = dirs.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (dir === root) throw notThere(root, e);
      continue;
    }
    for (const ent of entries) {
      if (ent.name.startsWith('.') || SKIPPED_DIRS.has(ent.name)) continue;
      const path = join(dir, ent.name);
      if (ent.isDirectory()) {
        if (depth + 1 > MAX_FOLDER_DEPTH) continue;
        if (++folders > MAX_FOLDER_DIRS) throw tooMany(root, MAX_FOLDER_DIRS, 'folders');
        dirs.push({ dir: path, depth: depth + 1 });
      } else if (ent.isFile() || ent.isSymbolicLink()) {
        if (out.length >= max) throw tooMany(root, max);
        if (ent.isSymbolicLink()) {
          out.push({ file: path, sizeBytes: 0, mtimeMs: 0, link: await readlink(path).catch(() => '?') });
          continue;
        }
        const st = await stat(path).catch(() => undefined);
        if (st) out.push({ file: path, sizeBytes: st.size, mtimeMs: st.mtimeMs });
      }
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

/** What a path is, in words when it is not there. */
export async function kindOf(path: string): Promise<'file' | 'folder'> {
  try {
    const st = await stat(path);
    if (st.isDirectory()) return 'folder';
    if (st.isFile()) return 'file';
  } catch (e) {
    throw notThere(path, e);
  }
  throw new AppError('invalid_input', `${path} is neither a file nor a folder.`);
}

/**
 * Brings a source's documents in line with its files: new and changed ones (by modification time and size) are
 * queued, gone ones removed. Answers whether anything changed.
 */
export async function syncSource(
  index: DocIndexPort,
  source: { id: string; base: string; kind: 'file' | 'folder' | 'upload'; path: string },
  maxFiles = MAX_FOLDER_FILES,
): Promise<boolean> {
  const found: Found[] =
    source.kind === 'folder'
      ? await walk(source.path, maxFiles)
      : await stat(source.path).then(
          (st) => [{ file: source.path, sizeBytes: st.size, mtimeMs: st.mtimeMs }],
          () => [],
        );
  const docs = new Map(index.documents({ source: source.id }).map((d) => [d.file, d]));
  let changed = false;
  for (const f of found) {
    const doc = docs.get(f.file);
    docs.delete(f.file);
    if (doc && doc.mtimeMs === f.mtimeMs && doc.sizeBytes === f.sizeBytes && !!f.link === isLink(doc.error)) continue;
    changed = true;
    const name = basename(f.file);
    index.upsertDocument({
      id: doc?.id,
      base: source.base,
      source: source.id,
      name,
      file: f.file,
      path: source.kind === 'folder' ? relative(source.path, f.file).split(sep).join('/') : basename(f.file),
      sizeBytes: f.sizeBytes,
      mtimeMs: f.mtimeMs,
      ...(f.link
        ? {
            state: 'error',
            error: extractError(
              name,
              'link',
              `This is a link (to ${f.link}): HubDesk does not follow links in an attached folder. Attach what it points to instead.`,
            ).toJSON(),
          }
        : { state: 'queued' }),
      pinned: doc?.pinned ?? false,
      tokens: 0,
    });
  }
  for (const gone of docs.values()) {
    changed = true;
    index.deleteDocument(gone.id);
  }
  return changed;
}

function notThere(path: string, e: unknown): AppError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new AppError('not_found', `${path} is not there: check the path.`);
  if (code === 'EACCES' || code === 'EPERM')
    return new AppError('forbidden', `HubDesk may not read ${path}: check its permissions.`);
  return new AppError('invalid_input', `HubDesk cannot open ${path} (${code ?? String(e)}).`);
}

const isLink = (error: { details?: unknown } | undefined) =>
  (error?.details as { reason?: string } | undefined)?.reason === 'link';

function tooMany(root: string, max: number, what: 'files' | 'folders' = 'files'): AppError {
  return new AppError(
    'invalid_input',
    `${root} holds more than ${max.toLocaleString('en')} ${what}: attach a smaller folder (one of its subfolders) instead.`,
    { details: { reason: `too_many_${what}`, limit: max } },
  );
}
