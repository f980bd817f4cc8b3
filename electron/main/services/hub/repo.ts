import { AppError } from '@shared/errors';
import { hubOffError } from '@shared/hub-off';
import { hubKindInfo, hubKindOfRepo, hubWebPath } from '@shared/hub-kinds';
import type { HubFreshness } from '@shared/contract/hub';
import {
  treeEntrySchema,
  type HubRepoInfo,
  type LineageRelation,
  type RepoKind,
  type RepoLink,
  type TreeEntry,
} from '@shared/contract/hub-repo';
import { HUB_INFO_MAX_BYTES, HUB_SEARCH_MAX_BYTES, HUB_TREE_MAX_BYTES } from './caps';
import type { HubAnswer } from './answer-cache';
import type { CappedText } from '../http/read-text-capped';
import type { HubClient } from './client';
import { nextLink } from './links';

/** READMEs larger than this are cut (with a note on the page): 1 MB is far more than any card needs. */
export const README_MAX_BYTES = 1_000_000;
/** A Files tab lists at most this many entries at a time; a cursor brings the next part on request. */
export const TREE_MAX_ENTRIES = 5_000;
/** Models listed per lineage relation. */
const DERIVED_LIMIT = 20;

const enc = (id: string) => id.split('/').map(encodeURIComponent).join('/');
const apiBase = (kind: RepoKind, id: string) => `/api/${hubKindOfRepo(kind)}/${enc(id)}`;

function readmePath(kind: RepoKind, id: string): string {
  return `/${hubWebPath(hubKindOfRepo(kind), id)}/resolve/main/README.md`;
}

/** Splits YAML front matter (`---` … `---` at the very start) from the markdown after it. */
export function splitFrontMatter(text: string): { frontMatter?: string; markdown: string } {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { markdown: text.replace(/^\uFEFF/, '') };
  return { frontMatter: m[1], markdown: text.slice(m[0].length) };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A dataset's or a Space's info answer, keeping only what reads as the documented types. */
function toRepoInfo(kind: HubRepoInfo['kind'], id: string, raw: Record<string, unknown>): HubRepoInfo {
  const out: HubRepoInfo = { kind, id: str(raw.id) ?? id, tags: strings(raw.tags) ?? [] };
  out.author = str(raw.author) ?? (out.id.includes('/') ? out.id.split('/')[0] : undefined);
  if (!out.author) delete out.author;
  const set = <K extends keyof HubRepoInfo>(k: K, v: HubRepoInfo[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set('downloads', num(raw.downloads));
  set('likes', num(raw.likes));
  set('lastModified', str(raw.lastModified));
  set('createdAt', str(raw.createdAt));
  set('private', typeof raw.private === 'boolean' ? raw.private : undefined);
  set('gated', typeof raw.gated === 'boolean' || typeof raw.gated === 'string' ? raw.gated : undefined);
  set('cardData', isRecord(raw.cardData) ? raw.cardData : undefined);
  set('description', str(raw.description));
  set('usedStorage', num(raw.usedStorage));
  set('sdk', str(raw.sdk));
  set('runtimeStage', isRecord(raw.runtime) ? str(raw.runtime.stage) : undefined);
  set('models', strings(raw.models));
  set('datasets', strings(raw.datasets));
  set('fileCount', Array.isArray(raw.siblings) ? raw.siblings.length : undefined);
  return out;
}

interface ReadmeAnswer {
  markdown?: string;
  frontMatter?: string;
  size?: number;
  truncated: boolean;
  gated?: string;
  freshness: HubFreshness;
}

/** Model cards, file trees, lineage and dataset/Space details: the Hub repo pages beyond search. */
export class HubRepoDetails {
  constructor(
    private readonly client: HubClient,
    private readonly enabled: () => boolean,
  ) {}

  /** The network when live access is on; otherwise only a copy cached earlier, and nothing is sent. */
  /** `cap`: the bytes of JSON read at most (caps.ts); a README has its own, README_MAX_BYTES. */
  private async fetch(path: string, what: string, cap: number | 'text'): Promise<HubAnswer> {
    if (!this.enabled()) {
      const cached = this.client.cached(path);
      if (!cached) throw hubOffError();
      return cached;
    }
    return cap === 'text' ? this.client.getText(path, what, README_MAX_BYTES) : this.client.get(path, what, cap);
  }

  private unreadable(what: string): AppError {
    return new AppError('upstream', `The Hub at ${this.client.host} sent an unreadable answer for the ${what}.`);
  }

  async repo(kind: HubRepoInfo['kind'], id: string): Promise<{ repo: HubRepoInfo; freshness: HubFreshness }> {
    const what = `${hubKindInfo[hubKindOfRepo(kind)].nounOne} "${id}"`;
    const answer = await this.fetch(apiBase(kind, id), what, HUB_INFO_MAX_BYTES);
    if (!isRecord(answer.body)) throw this.unreadable(what);
    return { repo: toRepoInfo(kind, id, answer.body), freshness: answer.freshness };
  }

  async derived(
    id: string,
    relation: LineageRelation,
  ): Promise<{ models: RepoLink[]; more: boolean; freshness: HubFreshness }> {
    const q = new URLSearchParams({
      filter: `base_model:${relation}:${id}`,
      sort: 'downloads',
      direction: '-1',
      limit: String(DERIVED_LIMIT),
    });
    const what = `models derived from "${id}"`;
    const answer = await this.fetch(`/api/models?${q}`, what, HUB_SEARCH_MAX_BYTES);
    if (!Array.isArray(answer.body)) throw this.unreadable(what);
    const models: RepoLink[] = [];
    for (const raw of answer.body) {
      if (!isRecord(raw)) continue;
      const mid = str(raw.id) ?? str(raw.modelId);
      if (!mid) continue;
      const link: RepoLink = { id: mid };
      if (num(raw.downloads) !== undefined) link.downloads = num(raw.downloads);
      if (num(raw.likes) !== undefined) link.likes = num(raw.likes);
      if (str(raw.pipeline_tag)) link.pipeline_tag = str(raw.pipeline_tag);
      models.push(link);
    }
    return { models, more: !!nextLink(answer.link), freshness: answer.freshness };
  }

  async readme(kind: RepoKind, id: string): Promise<ReadmeAnswer> {
    const what = `README of "${id}"`;
    let answer: HubAnswer;
    try {
      answer = await this.fetch(readmePath(kind, id), what, 'text');
    } catch (e) {
      // A repo without a README is normal: the page says "no model card" instead of an error.
      // A gated card is a state of the page (with what to do), not a failure.
      const details = (e as AppError).details as { hubErrorCode?: string; gated?: boolean } | undefined;
      const now = { source: 'network' as const, fetchedAt: new Date().toISOString() };
      if (e instanceof AppError && e.code === 'not_found' && details?.hubErrorCode === 'EntryNotFound')
        return { truncated: false, freshness: now };
      if (e instanceof AppError && details?.gated) return { truncated: false, gated: e.message, freshness: now };
      throw e;
    }
    const body = answer.body as CappedText;
    if (!body || typeof body.text !== 'string') throw this.unreadable(what);
    const { frontMatter, markdown } = splitFrontMatter(body.text);
    const out: ReadmeAnswer = { markdown, truncated: !!body.truncated, freshness: answer.freshness };
    if (frontMatter !== undefined) out.frontMatter = frontMatter;
    if (body.size !== undefined) out.size = body.size;
    return out;
  }

  /**
   * The repo's files, recursively, following the `Link` cursor until TREE_MAX_ENTRIES are listed; the
   * cursor of the rest is returned so a huge repo never makes one request hang or a page too long.
   */
  async tree(
    kind: RepoKind,
    id: string,
    cursor?: string,
  ): Promise<{ entries: TreeEntry[]; next?: string; freshness: HubFreshness }> {
    const base = `${apiBase(kind, id)}/tree/main`;
    const what = `file list of "${id}"`;
    // Only the query of a cursor is used, so a cursor can never point the request elsewhere.
    let query: string | undefined = cursor
      ? new URLSearchParams(cursor).toString()
      : new URLSearchParams({ recursive: 'true', expand: 'false' }).toString();
    const entries: TreeEntry[] = [];
    let freshness: HubFreshness | undefined;
    while (query !== undefined && entries.length < TREE_MAX_ENTRIES) {
      const answer = await this.fetch(`${base}?${query}`, what, HUB_TREE_MAX_BYTES);
      if (!Array.isArray(answer.body)) throw this.unreadable(what);
      freshness ??= answer.freshness;
      for (const raw of answer.body) {
        const parsed = treeEntrySchema.safeParse(raw);
        if (parsed.success) entries.push(parsed.data);
      }
      const next = nextLink(answer.link);
      query = undefined;
      if (next) {
        try {
          query = new URL(next, this.client.host).searchParams.toString();
        } catch {
          // An unreadable Link ends the listing.
        }
      }
    }
    const out: { entries: TreeEntry[]; next?: string; freshness: HubFreshness } = {
      entries,
      freshness: freshness ?? { source: 'network', fetchedAt: new Date().toISOString() },
    };
    if (query !== undefined) out.next = query;
    return out;
  }
}
