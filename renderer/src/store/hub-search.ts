import { create } from 'zustand';
import type { HubFreshness } from '@shared/contract/hub';
import type { HubRepoSummary, HubSearchInput, HubSort } from '@shared/contract/hub-search';
import { hubKinds, type HubKind } from '@shared/hub-kinds';
import type { AppError } from '@shared/errors';
import { api } from '../api';

/**
 * The filters a person sets; each kind sends those that apply to it (main maps them to the Hub's parameters). The
 * task is `task`, as in the embedded catalogue's filters; the call names it as the Hub does, `pipeline_tag`.
 */
export type HubFilters = Partial<
  Pick<HubSearchInput, 'library' | 'license' | 'author' | 'runsLocally' | 'provider' | 'sdk'> & { task: string }
>;

export const kindFilters: Record<HubKind, (keyof HubFilters)[]> = {
  models: ['task', 'library', 'license', 'author', 'runsLocally', 'provider'],
  datasets: ['task', 'license', 'author'],
  spaces: ['sdk', 'license', 'author'],
};

export interface KindResults {
  results: HubRepoSummary[];
  next?: string;
  freshness?: HubFreshness;
  /** The first page of a new query is on its way (rows of the previous one are shown dimmed meanwhile). */
  refreshing: boolean;
  /** The next page is on its way. */
  loading: boolean;
  error?: AppError;
  /** Whether any page has answered for the current query (an empty list then means "nothing matches"). */
  answered: boolean;
}

const empty = (): KindResults => ({ results: [], refreshing: false, loading: false, answered: false });

interface HubSearchState {
  kind: HubKind;
  sort: HubSort;
  filters: HubFilters;
  byKind: Record<HubKind, KindResults>;
  setKind(kind: HubKind): void;
  setSort(sort: HubSort): void;
  setFilters(f: HubFilters): void;
  /** First pages of every kind for a query (the tabs show their counts). */
  search(query: string): void;
  /** The next page of a kind, when there is one and none is on its way. */
  more(kind: HubKind): Promise<void>;
  /** Asks a kind's first page again (after an error). */
  retry(kind: HubKind): void;
}

/** The input a kind's first page is asked with. */
function firstPageInput(kind: HubKind, query: string, sort: HubSort, filters: HubFilters): HubSearchInput {
  const input: HubSearchInput = { kind, sort };
  const search = query.trim();
  if (search) input.search = search;
  for (const k of kindFilters[kind]) {
    const v = filters[k];
    if (v !== undefined && v !== '' && v !== false) Object.assign(input, { [k === 'task' ? 'pipeline_tag' : k]: v });
  }
  return input;
}

/**
 * Hub results per kind. Every request carries a sequence number per kind: an answer to an older query (typing fast)
 * is dropped, so a stale page never replaces a newer one.
 */
export const useHubSearch = create<HubSearchState>((set, get) => {
  const seq: Record<HubKind, number> = { models: 0, datasets: 0, spaces: 0 };
  let lastQuery = '';
  const patch = (kind: HubKind, p: Partial<KindResults>) =>
    set((s) => ({ byKind: { ...s.byKind, [kind]: { ...s.byKind[kind], ...p } } }));

  const first = async (kind: HubKind) => {
    const mine = ++seq[kind];
    patch(kind, { refreshing: true, loading: false, error: undefined });
    const { sort, filters } = get();
    try {
      const res = await api.call('hub.search', firstPageInput(kind, lastQuery, sort, filters));
      if (seq[kind] !== mine) return;
      performance.mark('hub-search:answer', { detail: { kind, count: res.results.length } });
      patch(kind, { ...empty(), results: res.results, next: res.next, freshness: res.freshness, answered: true });
    } catch (e) {
      if (seq[kind] === mine) patch(kind, { ...empty(), error: e as AppError });
    }
  };

  return {
    kind: 'models',
    sort: 'trending',
    filters: {},
    byKind: { models: empty(), datasets: empty(), spaces: empty() },
    setKind: (kind) => set({ kind }),
    setSort: (sort) => {
      set({ sort });
      get().search(lastQuery);
    },
    setFilters: (f) => {
      set((s) => ({ filters: { ...s.filters, ...f } }));
      get().search(lastQuery);
    },
    search: (query) => {
      lastQuery = query;
      for (const kind of hubKinds) void first(kind);
    },
    retry: (kind) => void first(kind),
    more: async (kind) => {
      const cur = get().byKind[kind];
      if (!cur.next || cur.loading || cur.refreshing) return;
      const mine = seq[kind];
      patch(kind, { loading: true, error: undefined });
      try {
        const res = await api.call('hub.search', { kind, cursor: cur.next });
        if (seq[kind] !== mine) return;
        const results = [...get().byKind[kind].results, ...res.results];
        performance.mark('hub-search:answer', { detail: { kind, count: results.length } });
        patch(kind, {
          results,
          next: res.next,
          freshness: res.freshness,
          loading: false,
        });
      } catch (e) {
        // The rows already shown stay; the error sits at the end of the list with a retry.
        if (seq[kind] === mine) patch(kind, { loading: false, error: e as AppError });
      }
    },
  };
});
