import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { AppError } from '@shared/errors';
import type { DocIndexPort } from './ports';

/** The most files a folder may hold: past it, attaching is refused before any work (a subfolder can be attached). */
const MAX_FOLDER_FILES = 10_000;

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
}

/** The files under a folder (recursively, skipping hidden and tool folders, symlinks not followed). */
export async function walk(root: string, max = MAX_FOLDER_FILES): Promise<Found[]> {
  const out: Found[] = [];
  const dirs = [root];
  while (dirs.length) {
    const dir = dirs.pop()!;
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
      if (ent.isDirectory()) dirs.push(path);
      else if (ent.isFile()) {
        if (out.length >= max) throw tooMany(root, max);
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
  const found =
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
    if (doc && doc.mtimeMs === f.mtimeMs && doc.sizeBytes === f.sizeBytes) continue;
    changed = true;
    index.upsertDocument({
      id: doc?.id,
      base: source.base,
      source: source.id,
      name: basename(f.file),
      file: f.file,
      path: source.kind === 'folder' ? relative(source.path, f.file).split(sep).join('/') : basename(f.file),
      sizeBytes: f.sizeBytes,
      mtimeMs: f.mtimeMs,
      state: 'queued',
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

function tooMany(root: string, max: number): AppError {
  return new AppError(
    'invalid_input',
    `${root} holds more than ${max.toLocaleString('en')} files: attach a smaller folder (one of its subfolders) instead.`,
    { details: { reason: 'too_many_files', limit: max } },
  );
}
