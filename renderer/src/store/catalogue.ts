import { create } from 'zustand';
import type {
  CatalogueData,
  CatalogueItem,
  CatalogueLibrary,
  CatalogueModel,
  CatalogueTask,
} from '@shared/contract/catalogue';
import { CATALOGUE_ASSET } from '@shared/catalogue-asset';
import type { AppError } from '@shared/errors';
import { api } from '../api';
import { buildSearchIndex, recordsFromCatalogue, type SearchFilters, type SearchIndex } from '../lib/catalogue-search';

/** The embedded catalogue with lookups by id and its search index, built once. */
export interface CatalogueView {
  data: CatalogueData;
  tasks: Map<string, CatalogueTask>;
  libraries: Map<string, CatalogueLibrary>;
  models: Map<string, CatalogueModel>;
  datasets: Map<string, CatalogueItem>;
  apps: Map<string, CatalogueItem>;
  modalityLabels: Map<string, string>;
  index: SearchIndex;
}

export function catalogueView(data: CatalogueData): CatalogueView {
  return {
    data,
    tasks: new Map(data.tasks.map((t) => [t.id, t])),
    libraries: new Map(data.libraries.map((l) => [l.id, l])),
    models: new Map(data.models.map((m) => [m.id, m])),
    datasets: new Map(data.datasets.map((d) => [d.id, d])),
    apps: new Map(data.apps.map((a) => [a.id, a])),
    modalityLabels: new Map(data.modalities.map((m) => [m.id, m.label])),
    index: buildSearchIndex(recordsFromCatalogue(data)),
  };
}

/**
 * The catalogue built with the app (a static asset, preloaded by index.html); where it is absent (the dev server)
 * main builds it through the `catalogue.get` call.
 */
async function fetchCatalogue(): Promise<CatalogueData> {
  try {
    const res = await fetch(`./${CATALOGUE_ASSET}`);
    if (res.ok && res.headers.get('content-type')?.includes('json')) return (await res.json()) as CatalogueData;
  } catch {
    // Not served here: asked of main below.
  }
  return api.call('catalogue.get', {});
}

/** The embedded tasks and libraries as filter options (the same lists for the embedded and the Hub filters). */
export const taskOptions = (view: CatalogueView) =>
  view.data.tasks.map((t) => ({ value: t.id, label: t.label ?? t.name }));
export const libraryOptions = (view: CatalogueView) =>
  view.data.libraries.map((l) => ({ value: l.id, label: l.prettyLabel }));

interface CatalogueState {
  view?: CatalogueView;
  error?: AppError;
  loading: boolean;
  query: string;
  filters: SearchFilters;
  load(): Promise<void>;
  setQuery(q: string): void;
  setFilters(f: Partial<SearchFilters>): void;
}

/** The catalogue is asked for once per session; search and filters live here so they survive navigation. */
export const useCatalogue = create<CatalogueState>((set, get) => ({
  loading: false,
  query: '',
  filters: {},
  load: async () => {
    if (get().view || get().loading) return;
    set({ loading: true, error: undefined });
    try {
      const data = await fetchCatalogue();
      set({ view: catalogueView(data), loading: false });
    } catch (e) {
      set({ error: e as AppError, loading: false });
    }
  },
  setQuery: (query) => set({ query }),
  setFilters: (f) => set((s) => ({ filters: { ...s.filters, ...f } })),
}));
