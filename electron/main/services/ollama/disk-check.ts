import { statfs } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@shared/errors';
import { formatBytes } from '@shared/format-bytes';

/** The Hub repo and quant of an Ollama pull name `hf.co/{owner}/{repo}:{quant}` (or `huggingface.co/…`). */
export function hubPullTarget(model: string): { repo: string; quant: string } | undefined {
  const m = /^(?:hf\.co|huggingface\.co)\/([\w.-]+\/[\w.-]+):([\w.-]+)$/i.exec(model.trim());
  return m ? { repo: m[1], quant: m[2] } : undefined;
}

/** Where Ollama keeps models, most specific first: `OLLAMA_MODELS`, `~/.ollama/models`, the home dir. */
export function ollamaModelDirs(env: Record<string, string | undefined>, home = homedir()): string[] {
  return [env.OLLAMA_MODELS, join(home, '.ollama', 'models'), home].filter((d): d is string => !!d);
}

/** Free bytes on the disk of the first of `dirs` that exists; undefined when none can be read. */
async function freeBytesOn(dirs: string[]): Promise<{ dir: string; free: number } | undefined> {
  for (const dir of dirs) {
    try {
      const s = await statfs(dir);
      return { dir, free: s.bavail * s.bsize };
    } catch {
      // Not there (Ollama not run yet, or OLLAMA_MODELS unset): the next candidate is on the same machine.
    }
  }
  return undefined;
}

export interface PullDiskCheck {
  /** The file size the Hub lists for the quant; undefined when unknown (no check then). */
  size(repo: string, quant: string): Promise<number | undefined>;
  /** The candidate model dirs (ollamaModelDirs). */
  dirs(): string[];
  free?: (dirs: string[]) => Promise<{ dir: string; free: number } | undefined>;
  /** Whether Ollama has the model already (a pull again only checks for updates): asked only before refusing. */
  pulled?: (model: string) => Promise<boolean>;
}

/**
 * Refuses, before Ollama is asked, an `hf.co/…:{quant}` pull the local disk has no room for. Only a local Ollama
 * writes to this machine's disk, so the caller checks the host; an unknown size or free space means no check.
 */
export async function checkPullDisk(model: string, check: PullDiskCheck): Promise<void> {
  const target = hubPullTarget(model);
  if (!target) return;
  const size = await check.size(target.repo, target.quant).catch(() => undefined);
  if (size === undefined) return;
  const disk = await (check.free ?? freeBytesOn)(check.dirs());
  if (!disk || disk.free >= size) return;
  if (await check.pulled?.(model).catch(() => false)) return;
  throw new AppError(
    'unavailable',
    `Not enough disk space for ${model}: needs ${formatBytes(size)}, ${formatBytes(disk.free)} free on ${disk.dir}. ` +
      'Free some space (or set OLLAMA_MODELS to a larger disk and restart Ollama), then pull again.',
  );
}
