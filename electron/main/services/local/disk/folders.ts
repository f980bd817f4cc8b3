import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { LocalSource } from '@shared/contract/local-models';

/** A folder the library scans. */
export interface Root {
  path: string;
  source: LocalSource;
  /** Found by HubDesk rather than added by the user. */
  auto: boolean;
}

/** The Hugging Face cache: HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub (as huggingface_hub does). */
export function hfCacheDir(env: Record<string, string | undefined>, home: string): string {
  const hub = env.HF_HUB_CACHE?.trim();
  if (hub) return resolve(expandHome(hub, home));
  const hfHome = env.HF_HOME?.trim();
  if (hfHome) return join(resolve(expandHome(hfHome, home)), 'hub');
  return join(home, '.cache', 'huggingface', 'hub');
}

/**
 * LM Studio's model folders: `downloadsFolder` from ~/.lmstudio/settings.json, else ~/.lmstudio/models, then the
 * older ~/.cache/lm-studio/models when it is there. A damaged settings file falls back to the default folder.
 */
export async function lmStudioDirs(home: string): Promise<string[]> {
  let folder = join(home, '.lmstudio', 'models');
  try {
    const settings = JSON.parse(await readFile(join(home, '.lmstudio', 'settings.json'), 'utf8')) as unknown;
    const custom = (settings as { downloadsFolder?: unknown } | null)?.downloadsFolder;
    if (typeof custom === 'string' && custom.trim()) folder = resolve(expandHome(custom.trim(), home));
  } catch {
    // No settings file, or one we cannot read: LM Studio's default folder.
  }
  const legacy = join(home, '.cache', 'lm-studio', 'models');
  return folder !== legacy && existsSync(legacy) ? [folder, legacy] : [folder];
}

/** `~` and `~/…` as the user's home folder. */
function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(home, path.slice(2));
  return path;
}

/** A folder path as stored and compared: absolute, `~` expanded, without a trailing separator. */
export function normalizeFolder(path: string, home: string): string | undefined {
  const p = expandHome(path.trim(), home);
  return isAbsolute(p) ? resolve(p) : undefined;
}

const REPO_PART = /^[A-Za-z0-9][\w.-]*$/;

/** `org/name` when both look like Hub names (the contract's repo id pattern), else undefined. */
export function repoFrom(org: string | undefined, name: string | undefined): string | undefined {
  if (!org || !name || !REPO_PART.test(org) || !/^[\w.-]+$/.test(name)) return undefined;
  const repo = `${org}/${name}`;
  return repo.length <= 200 ? repo : undefined;
}
