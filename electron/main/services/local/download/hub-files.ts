import { AppError } from '@shared/errors';

/** One file of a download: a single GGUF, or one part of a split one. */
export interface PartInfo {
  file: string;
  size: number;
  /** The Hub's LFS oid: the sha256 the downloaded bytes must have. */
  sha256: string;
}

interface TreeEntry {
  type: string;
  path: string;
  size: number;
  lfs?: { oid?: string; size?: number };
}

const SPLIT = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;
/** Tree pages followed at most (1,000 entries each) before giving up on finding the file. */
const MAX_PAGES = 50;

/** Every part of a split GGUF (`name-00001-of-0000N.gguf`) whichever part is named; the file itself otherwise. */
export function partNames(file: string): string[] {
  const m = SPLIT.exec(file);
  if (!m || Number(m[3]) < 1) return [file];
  return Array.from({ length: Number(m[3]) }, (_, i) => `${m[1]}-${String(i + 1).padStart(5, '0')}-of-${m[3]}.gguf`);
}

const segments = (p: string) => p.split('/').map(encodeURIComponent).join('/');
const base = (endpoint: string) => endpoint.replace(/\/+$/, '');

/** `{endpoint}/{repo}/resolve/{rev}/{file}`: the Hub answers with a redirect to its CDN. */
export function resolveUrl(endpoint: string, repo: string, revision: string, file: string): string {
  return `${base(endpoint)}/${segments(repo)}/resolve/${encodeURIComponent(revision)}/${segments(file)}`;
}

/** The Hub's refusal as an error a person can act on. */
export function hubRefusal(res: Response, repo: string, file: string, revision: string): AppError {
  const code = res.headers.get('x-error-code') ?? '';
  const status = res.status;
  if (status === 401 || status === 403)
    return new AppError(
      'unauthorized',
      code === 'GatedRepo'
        ? `${repo} is gated: accept the licence on its Hub page, then set your HF token in Settings.`
        : `The Hub refused ${file} (${status}): ${repo} may be private or gated — set your HF token in Settings.`,
      { status },
    );
  if (status === 404) {
    if (code === 'RevisionNotFound') return new AppError('not_found', `${repo} has no revision "${revision}".`);
    if (code === 'RepoNotFound')
      return new AppError('not_found', `${repo} is not on the Hub (or it is private: set your HF token in Settings).`);
    return new AppError('not_found', `${file} is not in ${repo}.`, { status });
  }
  if (status === 429) return new AppError('rate_limited', 'The Hub is rate-limiting requests: try again in a minute.');
  return new AppError('upstream', `The Hub answered ${status} for ${file}.`, { status });
}

/** A request that never got an answer (refused, reset, DNS). */
function unreachable(url: string, e: unknown): AppError {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (e as Error).message;
  return new AppError('unavailable', `Could not reach ${new URL(url).origin} (${why}).`);
}

interface Lookup {
  fetch: typeof fetch;
  endpoint: string;
  repo: string;
  revision: string;
  file: string;
}

/**
 * The parts of `file` with their sizes and sha256, from the tree API (following its `Link` pages), then a HEAD on
 * the first part's `resolve` so a gated repo is refused before anything is queued.
 */
export async function hubParts(o: Lookup): Promise<PartInfo[]> {
  const names = partNames(o.file);
  const found = new Map<string, TreeEntry>();
  let url: string | undefined =
    `${base(o.endpoint)}/api/models/${segments(o.repo)}/tree/${encodeURIComponent(o.revision)}?recursive=true`;
  for (let page = 0; url && page < MAX_PAGES && found.size < names.length; page++) {
    const res: Response = await o.fetch(url).catch((e: unknown) => {
      throw unreachable(url!, e);
    });
    if (!res.ok) throw hubRefusal(res, o.repo, o.file, o.revision);
    for (const e of (await res.json()) as TreeEntry[]) if (names.includes(e.path)) found.set(e.path, e);
    url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  const parts = names.map((name, i): PartInfo => {
    const e = found.get(name);
    if (!e || e.type !== 'file')
      throw new AppError(
        'not_found',
        names.length > 1
          ? `Part ${i + 1} of ${names.length} (${name}) is not in ${o.repo}.`
          : `${name} is not in ${o.repo}.`,
      );
    const sha = e.lfs?.oid;
    if (!sha || !/^[0-9a-f]{64}$/.test(sha))
      throw new AppError(
        'invalid_input',
        `${name} in ${o.repo} is not stored with Git LFS, so the Hub gives no sha256 to check it against.`,
      );
    return { file: name, size: e.lfs?.size ?? e.size, sha256: sha };
  });
  const first = resolveUrl(o.endpoint, o.repo, o.revision, names[0]);
  const head = await o.fetch(first, { method: 'HEAD' }).catch((e: unknown) => {
    throw unreachable(first, e);
  });
  if (!head.ok) throw hubRefusal(head, o.repo, names[0], o.revision);
  return parts;
}
