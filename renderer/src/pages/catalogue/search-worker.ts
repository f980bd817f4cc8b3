/// <reference lib="webworker" />
import {
  buildSearchIndex,
  searchIndex,
  type SearchFilters,
  type SearchIndex,
  type SearchRecord,
} from '../../lib/catalogue-search';

/** Messages the page sends: the records once, then queries; each answer carries its query's `id`. */
export type SearchWorkerRequest =
  { type: 'init'; records: SearchRecord[] } | { type: 'search'; id: number; query: string; filters: SearchFilters };
export interface SearchWorkerAnswer {
  id: number;
  idxs: number[];
}

// The typo-tolerant pass scans the whole list on a new query: here it never holds up a keystroke.
let index: SearchIndex | undefined;
self.onmessage = (e: MessageEvent<SearchWorkerRequest>) => {
  const msg = e.data;
  if (msg.type === 'init') index = buildSearchIndex(msg.records);
  else if (index) {
    const answer: SearchWorkerAnswer = { id: msg.id, idxs: searchIndex(index, msg.query, msg.filters) };
    self.postMessage(answer);
  }
};
