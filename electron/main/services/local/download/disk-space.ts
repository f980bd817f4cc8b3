import { existsSync, mkdirSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '@shared/errors';
import { formatBytes } from './meter';

/** Kept free on the disk beyond what a download needs. */
export const DISK_MARGIN = 256 * 1024 * 1024;

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

/** Waits `ms`, or less when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((ok) => {
    const t = setTimeout(ok, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), ok()), { once: true });
  });
}
