import { existsSync, mkdirSync, statSync } from 'node:fs';
import { rm, statfs } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { AppError } from '@shared/errors';
import type { PartInfo } from './hub-files';
import { formatBytes } from '@shared/format-bytes';

/** Kept free on the disk beyond what a download needs. */
const DISK_MARGIN = 256 * 1024 * 1024;

async function freeOn(dir: string): Promise<number> {
  const s = await statfs(existsSync(dir) ? dir : dirname(dir));
  return s.bavail * s.bsize;
}

/** Refuses, before any byte is fetched, a download the disk holding `dir` has no room for. */
export async function checkSpace(
  dir: string,
  needed: number,
  freeBytes?: (dir: string) => Promise<number>,
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const free = freeBytes ? await freeBytes(dir) : await freeOn(dir);
  if (free < needed + DISK_MARGIN)
    throw new AppError(
      'unavailable',
      `Not enough disk space: needs ${formatBytes(needed + DISK_MARGIN)}, ${formatBytes(free)} free on ${dir}.`,
    );
}

/** `<dir>/<repo>/<file>`, refusing anything that would land outside `dir`. */
export function filePath(dir: string, repo: string, file: string): string {
  const root = resolve(dir);
  const p = resolve(root, repo, file);
  if (!p.startsWith(root + sep)) throw new AppError('invalid_input', `${file} is not a file name HubDesk can use.`);
  return p;
}

const sizeOf = (path: string) => statSync(path, { throwIfNoEntry: false })?.size;

/** The bytes the parts' `.part` files already hold. */
export function partBytes(dir: string, repo: string, parts: PartInfo[]): number {
  return parts.reduce((n, p) => n + Math.min(sizeOf(`${filePath(dir, repo, p.file)}.part`) ?? 0, p.size), 0);
}

/** Every part is there under its final name, at its full size. */
export function allOnDisk(dir: string, repo: string, parts: PartInfo[]): boolean {
  return parts.every((p) => sizeOf(filePath(dir, repo, p.file)) === p.size);
}

export async function removePartFiles(dir: string, repo: string, parts: PartInfo[]): Promise<void> {
  await Promise.all(parts.map((p) => rm(`${filePath(dir, repo, p.file)}.part`, { force: true })));
}
