import uFuzzy from '@leeoniya/ufuzzy';
import type { CatalogueData } from '@shared/contract/catalogue';
import { hubKindInfo, hubKinds, type HubPageKind } from '@shared/hub-kinds';

/** What the embedded catalogue holds: tasks, libraries and the Hub's repo kinds, by their catalogue page. */
export type SearchKind = 'task' | 'library' | HubPageKind;
export const searchKinds: readonly SearchKind[] = ['task', 'library', ...hubKinds.map((k) => hubKindInfo[k].page)];

export const kindLabels: Record<SearchKind, string> = {
  task: 'Tasks',
  library: 'Libraries',
  model: hubKindInfo.models.label,
  dataset: hubKindInfo.datasets.label,
  app: hubKindInfo.spaces.label,
};

/** One searchable thing: a task, library, model, dataset or Space. */
export interface SearchRecord {
  kind: SearchKind;
  id: string;
  label: string;
  detail?: string;
  /** Modalities of the record's tasks. */
  modalities: string[];
  tasks: string[];
  library?: string;
}

export interface SearchFilters {
  kind?: SearchKind;
  modality?: string;
  task?: string;
  library?: string;
}

export interface SearchIndex {
  records: SearchRecord[];
  haystack: string[];
  /** The haystack with ASCII letters lower-cased (what a case-insensitive literal match compares). */
  lower: string[];
  /** Exact terms (substring-like, in order): fast, used first. */
  strict: uFuzzy;
  /** Typo-tolerant: one insertion, substitution, transposition or deletion per term ("wisper", "whsiper"). */
  fuzzy: uFuzzy;
  /** The previous strict answer: typing one more character only searches within it. */
  last?: { needle: string; filters: string; idxs: number[] };
  /** Recent typo-tolerant answers (newest last), narrowed by later keystrokes where safe (see `fuzzyNarrows`). */
  fuzzyMemo: { needle: string; filters: string; idxs: number[] }[];
}

/** Above this many matches, ranking is skipped (uFuzzy's own threshold): the first keystroke stays cheap. */
const RANK_LIMIT = 1000;
/** With fewer exact matches than this, the typo-tolerant pass runs too. */
const FUZZY_BELOW = 20;
/** How many typo-tolerant answers are remembered for narrowing. */
const FUZZY_MEMO = 8;

/**
 * Whether the typo-tolerant matches for `next` are a subset of those for `prev` (a prefix of it). Adding a term, or a
 * new letter or digit part to a term, only adds a constraint. Growing a run of letters is different: uFuzzy's one-typo
 * rules depend on its length (1–2 letters exact, 3–4 a swap or an insertion, 5 and more any one typo), so a run that
 * grows from 2–4 letters, or past 2, can match new records; from 5 letters on it only narrows.
 */
export function fuzzyNarrows(prev: string, next: string): boolean {
  if (!prev || !next.startsWith(prev) || /["']/.test(next)) return false;
  const run = /[A-Za-z]*$/.exec(prev)![0].length;
  const grows = /^[A-Za-z]*/.exec(next.slice(prev.length))![0].length;
  if (run === 0 || grows === 0) return true;
  return run + grows <= 2 || run >= 5;
}

/** Flattens the embedded catalogue into search records. */
export function recordsFromCatalogue(data: CatalogueData): SearchRecord[] {
  const modalityOf = new Map(data.tasks.map((t) => [t.id, t.modality]));
  const mods = (tasks: string[]) => [...new Set(tasks.map((t) => modalityOf.get(t)).filter((m): m is string => !!m))];
  const out: SearchRecord[] = [];
  for (const t of data.tasks)
    out.push({
      kind: 'task',
      id: t.id,
      label: t.label ?? t.name,
      detail: t.summary,
      modalities: [t.modality],
      tasks: [t.id],
    });
  for (const l of data.libraries) {
    const tasks = [...new Set([...l.tasks, ...l.declaredTasks])];
    out.push({
      kind: 'library',
      id: l.id,
      label: l.prettyLabel,
      detail: l.repoName,
      modalities: mods(tasks),
      tasks,
      library: l.id,
    });
  }
  for (const m of data.models)
    out.push({
      kind: 'model',
      id: m.id,
      label: m.id,
      detail: m.description,
      modalities: mods(m.tasks),
      tasks: m.tasks,
      library: m.library_name,
    });
  for (const d of data.datasets)
    out.push({
      kind: 'dataset',
      id: d.id,
      label: d.id,
      detail: d.description,
      modalities: mods(d.tasks),
      tasks: d.tasks,
    });
  for (const a of data.apps)
    out.push({ kind: 'app', id: a.id, label: a.id, detail: a.description, modalities: mods(a.tasks), tasks: a.tasks });
  return out;
}

/** Builds the index once; `searchIndex` then answers each keystroke. */
export function buildSearchIndex(records: SearchRecord[]): SearchIndex {
  const haystack = records.map((r) => (r.label === r.id ? r.id : `${r.label} ${r.id}`));
  return {
    records,
    haystack,
    lower: haystack.map(asciiLower),
    fuzzyMemo: [],
    strict: new uFuzzy({}),
    fuzzy: new uFuzzy({ intraMode: 1, intraIns: 1, intraSub: 1, intraTrn: 1, intraDel: 1 }),
  };
}

const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** One plain word: the exact pass is a case-insensitive substring test, done without a regex. */
const PLAIN_TERM = /^[A-Za-z0-9]+$/;

/**
 * uFuzzy's exact pass (terms in order, each a literal). A single plain word — every query's first keystrokes, the
 * costliest on a large list — is answered by `includes` on the lower-cased haystack, which gives the same records.
 */
export function exactMatches(index: SearchIndex, needle: string, candidates?: number[]): number[] {
  if (!PLAIN_TERM.test(needle)) return index.strict.filter(index.haystack, needle, candidates) ?? [];
  const q = asciiLower(needle);
  const { lower } = index;
  const out: number[] = [];
  if (candidates) {
    for (const i of candidates) if (lower[i].includes(q)) out.push(i);
  } else {
    for (let i = 0; i < lower.length; i++) if (lower[i].includes(q)) out.push(i);
  }
  return out;
}

function matchesFilters(r: SearchRecord, f: SearchFilters): boolean {
  if (f.kind && r.kind !== f.kind) return false;
  if (f.modality && !r.modalities.includes(f.modality)) return false;
  if (f.task && !r.tasks.includes(f.task)) return false;
  if (f.library && r.library !== f.library) return false;
  return true;
}

interface ExactPass {
  needle: string;
  filterKey: string;
  /** Exact matches, unranked. */
  exact: number[];
  /** Few exact matches for a long-enough needle: a typo-tolerant pass may find more. */
  wantsFuzzy: boolean;
}

function filterKeyOf(filters: SearchFilters): string {
  return `${filters.kind ?? ''}|${filters.modality ?? ''}|${filters.task ?? ''}|${filters.library ?? ''}`;
}

function filtered(index: SearchIndex, filters: SearchFilters): number[] {
  const out: number[] = [];
  for (let i = 0; i < index.records.length; i++) if (matchesFilters(index.records[i], filters)) out.push(i);
  return out;
}

/** The exact pass, narrowed from the previous keystroke's answer when the needle only grew. */
function exactPass(index: SearchIndex, query: string, filters: SearchFilters): ExactPass | number[] {
  const filterKey = filterKeyOf(filters);
  const needle = query.trim();
  let candidates: number[] | undefined;
  const last = index.last;
  if (needle && last && last.filters === filterKey && last.needle && needle.startsWith(last.needle)) {
    // A longer needle matches a subset of what the shorter one matched.
    candidates = last.idxs;
  } else if (filterKey !== '|||') {
    candidates = filtered(index, filters);
  }
  if (!needle) {
    index.last = undefined;
    index.fuzzyMemo = [];
    return candidates ?? index.records.map((_, i) => i);
  }
  const exact = exactMatches(index, needle, candidates);
  index.last = { needle, filters: filterKey, idxs: exact };
  return { needle, filterKey, exact, wantsFuzzy: exact.length < FUZZY_BELOW && needle.length >= 3 };
}

/**
 * Few exact hits: let one typo per term in, over the previous typo-tolerant answer when that is safe (the smallest
 * remembered answer this needle can only narrow), otherwise over the full (filtered) list.
 */
function fuzzyPass(index: SearchIndex, pass: ExactPass, filters: SearchFilters): number[] {
  const { needle, filterKey } = pass;
  let all: number[] | undefined;
  for (const m of index.fuzzyMemo)
    if (m.filters === filterKey && fuzzyNarrows(m.needle, needle) && (!all || m.idxs.length < all.length)) all = m.idxs;
  if (!all && filterKey !== '|||') all = filtered(index, filters);
  const loose = index.fuzzy.filter(index.haystack, needle, all) ?? [];
  index.fuzzyMemo = [...index.fuzzyMemo.slice(-(FUZZY_MEMO - 1)), { needle, filters: filterKey, idxs: loose }];
  return loose;
}

/** Best first: uFuzzy's order (when small enough to rank), then exact and prefix hits on the id or label ahead. */
function rank(index: SearchIndex, uf: uFuzzy, idxs: number[], needle: string): number[] {
  if (idxs.length === 0) return [];
  const { records, haystack } = index;
  let ranked: number[] = idxs;
  if (idxs.length <= RANK_LIMIT) {
    const info = uf.info(idxs, haystack, needle);
    const order = uf.sort(info, haystack, needle);
    ranked = order.map((o) => info.idx[o]);
  }
  const q = needle.toLowerCase();
  const tier = (i: number) => {
    const r = records[i];
    const id = r.id.toLowerCase();
    const label = r.label.toLowerCase();
    if (id === q || label === q) return 0;
    const name = id.slice(id.indexOf('/') + 1);
    if (id.startsWith(q) || label.startsWith(q) || name.startsWith(q)) return 1;
    return 2;
  };
  const head = ranked.slice(0, RANK_LIMIT);
  const tiers = new Map(head.map((i) => [i, tier(i)]));
  head.sort((a, b) => tiers.get(a)! - tiers.get(b)!);
  return ranked.length > RANK_LIMIT ? head.concat(ranked.slice(RANK_LIMIT)) : head;
}

/**
 * What a keystroke can answer at once: the exact matches, ranked, and whether a typo-tolerant pass (run off the
 * page's thread, see pages/catalogue/search-worker.ts) may add to them.
 */
export function searchExact(
  index: SearchIndex,
  query: string,
  filters: SearchFilters = {},
): { idxs: number[]; wantsFuzzy: boolean } {
  const pass = exactPass(index, query, filters);
  if (Array.isArray(pass)) return { idxs: pass, wantsFuzzy: false };
  return { idxs: rank(index, index.strict, pass.exact, pass.needle), wantsFuzzy: pass.wantsFuzzy };
}

/**
 * Typo-tolerant search with filters: the indices of matching records, best first — the exact pass and, when it finds
 * few, the typo-tolerant one. Pure and synchronous: the search worker runs it, tests and benchmarks call it directly.
 */
export function searchIndex(index: SearchIndex, query: string, filters: SearchFilters = {}): number[] {
  const pass = exactPass(index, query, filters);
  if (Array.isArray(pass)) return pass;
  if (pass.wantsFuzzy) {
    const loose = fuzzyPass(index, pass, filters);
    if (loose.length > pass.exact.length) return rank(index, index.fuzzy, loose, pass.needle);
  }
  return rank(index, index.strict, pass.exact, pass.needle);
}
