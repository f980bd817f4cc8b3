import { AppError } from '@shared/errors';
import { hubOffError } from '@shared/hub-off';
import { hubKindInfo, type HubKind } from '@shared/hub-kinds';
import {
  sortFor,
  type HubRepoSummary,
  type HubSearchInput,
  type HubSearchOutput,
  type HubSort,
} from '@shared/contract/hub-search';
import { HUB_SEARCH_MAX_BYTES } from './caps';
import type { HubAnswer } from './answer-cache';
import type { HubClient } from './client';
import { nextLink } from './links';

/** The Hub's `sort` key for each order (`sortFor` turns Spaces' "downloads" into likes). */
const SORT_KEYS: Record<HubSort, string> = {
  trending: 'trendingScore',
  downloads: 'downloads',
  likes: 'likes',
  updated: 'lastModified',
  created: 'createdAt',
};

/** The model list's default answer lacks author, dates and gated: they are asked for with `expand[]`. */
export const MODEL_LIST_EXPAND = [
  'author',
  'createdAt',
  'downloads',
  'gated',
  'lastModified',
  'library_name',
  'likes',
  'pipeline_tag',
  'private',
  'tags',
] as const;

const DEFAULT_PAGE_SIZE = 30;

/** The query string of a first page, in the Hub's own parameters (as huggingface_hub's `list_models` sends them). */
function searchQuery(input: HubSearchInput): URLSearchParams {
  const q = new URLSearchParams();
  const kind = input.kind;
  if (input.search) q.set('search', input.search);
  if (input.author) q.set('author', input.author);
  if (kind === 'models') {
    if (input.pipeline_tag) q.set('pipeline_tag', input.pipeline_tag);
    if (input.library) q.set('library', input.library);
    if (input.runsLocally) q.append('filter', input.runsLocally);
    if (input.provider) q.set('inference_provider', 'all');
  }
  if (kind === 'datasets' && input.pipeline_tag) q.append('filter', `task_categories:${input.pipeline_tag}`);
  if (kind === 'spaces' && input.sdk) q.append('filter', input.sdk);
  if (input.license) q.append('filter', `license:${input.license}`);
  q.set('sort', SORT_KEYS[sortFor(kind, input.sort)]);
  q.set('direction', '-1');
  q.set('limit', String(input.limit ?? DEFAULT_PAGE_SIZE));
  if (kind === 'models') for (const e of MODEL_LIST_EXPAND) q.append('expand[]', e);
  return q;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** One row of any list, keeping only fields of the expected type (the Hub adds fields over time). */
function repoSummary(kind: HubKind, raw: Record<string, unknown>): HubRepoSummary | undefined {
  const id = str(raw.id) ?? str(raw.modelId);
  if (!id) return undefined;
  const out: HubRepoSummary = {
    kind,
    id,
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t) => typeof t === 'string') : [],
  };
  const author = str(raw.author) ?? (id.includes('/') ? id.split('/')[0] : undefined);
  if (author) out.author = author;
  for (const k of ['downloads', 'likes'] as const) if (num(raw[k]) !== undefined) out[k] = num(raw[k]);
  for (const k of ['lastModified', 'createdAt', 'pipeline_tag', 'library_name', 'sdk', 'description'] as const)
    if (str(raw[k])) out[k] = str(raw[k]);
  if (out.description && out.description.length > 300) out.description = `${out.description.slice(0, 297)}…`;
  if (typeof raw.private === 'boolean') out.private = raw.private;
  if (typeof raw.gated === 'boolean' || typeof raw.gated === 'string') out.gated = raw.gated;
  return out;
}

/** A Hub answer as one page of results, with the cursor of the next page when the `Link` header has one. */
function toPage(kind: HubKind, answer: HubAnswer, host: string): HubSearchOutput {
  if (!Array.isArray(answer.body))
    throw new AppError(
      'upstream',
      `The Hub at ${host} sent something other than a list for the ${hubKindInfo[kind].nounOne} search.`,
    );
  const results: HubRepoSummary[] = [];
  for (const raw of answer.body as unknown[]) {
    const r = raw && typeof raw === 'object' ? repoSummary(kind, raw as Record<string, unknown>) : undefined;
    if (r) results.push(r);
  }
  const out: HubSearchOutput = { kind, results, freshness: answer.freshness };
  const next = nextLink(answer.link);
  if (next) {
    try {
      out.next = new URL(next, host).searchParams.toString();
    } catch {
      // An unreadable Link is treated as the last page.
    }
  }
  return out;
}

/**
 * Hub search: models, datasets or Spaces, one page at a time. With live access off, a page asked for before is
 * answered from the client's disk cache (marked `cache`, with its age); anything else is refused without a request.
 */
export async function searchHub(client: HubClient, enabled: boolean, input: HubSearchInput): Promise<HubSearchOutput> {
  const query = input.cursor ? new URLSearchParams(input.cursor) : searchQuery(input);
  const path = `/api/${input.kind}?${query}`;
  if (!enabled) {
    const cached = client.cached(path);
    if (!cached) throw hubOffError();
    return toPage(input.kind, cached, client.host);
  }
  return toPage(
    input.kind,
    await client.get(path, `${hubKindInfo[input.kind].nounOne} search`, HUB_SEARCH_MAX_BYTES),
    client.host,
  );
}
