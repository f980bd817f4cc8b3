import { useEffect, useMemo, useState } from 'react';
import type { SearchWorkerAnswer, SearchWorkerRequest } from './search-worker';
import { searchExact, searchIndex, type SearchFilters, type SearchIndex } from '../../lib/catalogue-search';

/** One worker per search index: it gets the records once, then answers typo-tolerant queries. */
class FuzzyWorker {
  private worker?: Worker;
  private next = 0;
  private readonly pending = new Map<number, (idxs: number[]) => void>();

  constructor(private readonly index: SearchIndex) {
    try {
      this.worker = new Worker(new URL('./search-worker.ts', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e: MessageEvent<SearchWorkerAnswer>) => {
        this.pending.get(e.data.id)?.(e.data.idxs);
        this.pending.delete(e.data.id);
      };
      this.send({ type: 'init', records: index.records });
    } catch {
      // No worker (a locked-down page): the full search runs here, after the keystroke has been answered.
      this.worker = undefined;
    }
  }

  private send(msg: SearchWorkerRequest): void {
    this.worker!.postMessage(msg);
  }

  search(query: string, filters: SearchFilters): Promise<number[]> {
    if (!this.worker) return new Promise((ok) => setTimeout(() => ok(searchIndex(this.index, query, filters))));
    const id = ++this.next;
    return new Promise((ok) => {
      this.pending.set(id, ok);
      this.send({ type: 'search', id, query, filters });
    });
  }
}

const workers = new WeakMap<SearchIndex, FuzzyWorker>();

/**
 * Search as the page shows it: each keystroke is answered at once with the exact matches; when they are few, the
 * typo-tolerant pass runs in a worker and its answer replaces them if it is still the current query and finds more.
 */
export function useSearch(index: SearchIndex, query: string, filters: SearchFilters): number[] {
  const exact = useMemo(() => searchExact(index, query, filters), [index, query, filters]);
  const [fuzzy, setFuzzy] = useState<{ for: typeof exact; idxs: number[] }>();
  useEffect(() => {
    if (!exact.wantsFuzzy) return;
    let worker = workers.get(index);
    if (!worker) workers.set(index, (worker = new FuzzyWorker(index)));
    let current = true;
    void worker.search(query, filters).then((idxs) => current && setFuzzy({ for: exact, idxs }));
    return () => {
      current = false;
    };
  }, [exact, index, query, filters]);
  return fuzzy?.for === exact && fuzzy.idxs.length > exact.idxs.length ? fuzzy.idxs : exact.idxs;
}
