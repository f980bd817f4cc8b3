import { AppError } from '@shared/errors';
import { CappedReadError, capWords, readJsonCapped } from '../../http/read-json-capped';
import { TimeoutError, timeoutFetch } from '../../http/timeout-fetch';
import { companyNetworkProblem } from '../../net/network-words';
import { HUB_TREE_MAX_BYTES } from '../../hub/caps';

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
  size: unknown;
  lfs?: { oid?: string; size?: unknown };
}

const SPLIT = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;
/** Tree pages followed at most (1,000 entries each) before giving up on finding the file. */
const MAX_PAGES = 50;
/** The wait for each tree page and for the HEAD, headers and body each (a mirror that never answers). */
const HUB_FILES_TIMEOUT_MS = 30_000;

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

/**
 * The Hub's refusal as an error a person can act on. `listed`: the file list named the file (a refusal of its bytes),
 * so a bare 404 is a file the Hub will not serve, never "not in the repo" beside a table that lists it.
 */
export function hubRefusal(res: Response, repo: string, file: string, revision: string, listed = false): AppError {
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
    if (listed)
      return new AppError(
        'not_found',
        `The Hub lists ${file} in ${repo} but will not serve it (404): it may have just been removed or renamed. Reload the model page and choose a file again, or try later.`,
        { status },
      );
    return new AppError('not_found', `${file} is not in ${repo}.`, { status });
  }
  if (status === 429) return new AppError('rate_limited', 'The Hub is rate-limiting requests: try again in a minute.');
  return new AppError('upstream', `The Hub answered ${status} for ${file}.`, { status });
}

/** A request that never got an answer (refused, reset, DNS, no headers in time). */
function unreachable(url: string, e: unknown): AppError {
  if (e instanceof TimeoutError)
    return new AppError(
      'timeout',
      `The Hub at ${new URL(url).origin} did not answer within ${e.ms / 1000} s: check the Hub endpoint in Settings, or try again.`,
    );
  const company = companyNetworkProblem(e, new URL(url).host);
  if (company) return company;
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
  /** Overrides HUB_FILES_TIMEOUT_MS (tests). */
  timeoutMs?: number;
}

/** A tree page read within its cap and time, as an array. */
async function treePage(res: Response, o: Lookup, timeoutMs: number): Promise<unknown[]> {
  let body: unknown;
  try {
    body = await readJsonCapped(res, { maxBytes: HUB_TREE_MAX_BYTES, timeoutMs });
  } catch (e) {
    if (!(e instanceof CappedReadError)) throw unreachable(res.url || o.endpoint, e);
    const origin = new URL(res.url || o.endpoint).origin;
    if (e.kind === 'timeout')
      throw new AppError('timeout', `${origin} did not send the file list of ${o.repo} within ${timeoutMs / 1000} s.`);
    if (e.kind === 'too-large')
      throw new AppError('upstream', `${origin} sent a file list for ${o.repo} larger than ${capWords(e.limit)}.`);
    throw new AppError('upstream', `${origin} sent a file list for ${o.repo} that is not JSON.`);
  }
  if (!Array.isArray(body))
    throw new AppError('upstream', `The Hub's file list for ${o.repo} is not a list of files: is the endpoint a Hub?`);
  return body;
}

/** A size from the tree as a count of bytes, or an error naming the file. */
function treeSize(e: TreeEntry, repo: string): number {
  const size = e.lfs?.size ?? e.size;
  if (typeof size === 'number' && Number.isSafeInteger(size) && size >= 0) return size;
  const shown = JSON.stringify(size) ?? 'nothing';
  throw new AppError(
    'upstream',
    `The Hub gives ${e.path} in ${repo} the size ${shown.slice(0, 40)}, which is not a number of bytes.`,
  );
}

/**
 * The parts of `file` with their sizes and sha256, from the tree API (following its `Link` pages), then a HEAD on
 * the first part's `resolve` so a gated repo is refused before anything is queued.
 */
export async function hubParts(o: Lookup): Promise<PartInfo[]> {
  const names = partNames(o.file);
  // A Set: a split file's 30,000 names against 30,000 tree entries is a look-up each, not a scan.
  const wanted = new Set(names);
  const timeoutMs = o.timeoutMs ?? HUB_FILES_TIMEOUT_MS;
  const get = timeoutFetch(timeoutMs, o.fetch);
  const found = new Map<string, TreeEntry>();
  let url: string | undefined =
    `${base(o.endpoint)}/api/models/${segments(o.repo)}/tree/${encodeURIComponent(o.revision)}?recursive=true`;
  for (let page = 0; url && page < MAX_PAGES && found.size < names.length; page++) {
    const res: Response = await get(url).catch((e: unknown) => {
      throw unreachable(url!, e);
    });
    if (!res.ok) {
      void res.body?.cancel().catch(() => {});
      throw hubRefusal(res, o.repo, o.file, o.revision);
    }
    for (const e of await treePage(res, o, timeoutMs)) if (isEntry(e) && wanted.has(e.path)) found.set(e.path, e);
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
    return { file: name, size: treeSize(e, o.repo), sha256: sha };
  });
  const first = resolveUrl(o.endpoint, o.repo, o.revision, names[0]);
  const head = await get(first, { method: 'HEAD' }).catch((e: unknown) => {
    throw unreachable(first, e);
  });
  if (!head.ok) throw hubRefusal(head, o.repo, names[0], o.revision, true);
  return parts;
}

const isEntry = (e: unknown): e is TreeEntry =>
  typeof e === 'object' && e !== null && typeof (e as TreeEntry).path === 'string';
