import { useCallback, useEffect, useRef, useState } from 'react';
import type { HubFreshness } from '@shared/contract/hub';
import type { HubRepoSummary } from '@shared/contract/hub-search';
import type { AppError } from '@shared/errors';
import { api } from '../../api';
import { Empty, ErrorState, Loading } from '../../components/States';
import { formatAge } from '../../lib/format';
import { catalogueHref } from './links';

const fmt = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

interface HubState {
  models: HubRepoSummary[];
  next?: string;
  freshness?: HubFreshness;
  loading: boolean;
  error?: AppError;
}

/** Live results from the Hub for the current query and filters, page by page (`Link` pagination in main). */
export function HubPanel({ query, task, library }: { query: string; task?: string; library?: string }) {
  const [st, setSt] = useState<HubState>({ models: [], loading: true });
  const seq = useRef(0);

  useEffect(() => {
    const mine = ++seq.current;
    setSt({ models: [], loading: true });
    const timer = setTimeout(async () => {
      try {
        const res = await api.call('hub.search', {
          search: query.trim() || undefined,
          pipeline_tag: task,
          library,
        });
        if (seq.current === mine)
          setSt({ models: res.results, next: res.next, freshness: res.freshness, loading: false });
      } catch (e) {
        if (seq.current === mine) setSt({ models: [], loading: false, error: e as AppError });
      }
    }, 300);
    return () => clearTimeout(timer);
  }, [query, task, library]);

  const more = useCallback(async () => {
    const mine = seq.current;
    const cursor = st.next;
    if (!cursor) return;
    setSt((s) => ({ ...s, loading: true }));
    try {
      const res = await api.call('hub.search', { cursor });
      if (seq.current === mine)
        setSt((s) => ({
          models: [...s.models, ...res.results],
          next: res.next,
          freshness: res.freshness,
          loading: false,
        }));
    } catch (e) {
      if (seq.current === mine) setSt((s) => ({ ...s, loading: false, error: e as AppError }));
    }
  }, [st.next]);

  return (
    <section className="card cat-hub" data-testid="hub-results" aria-label="Hub results">
      <h2>
        On the Hub
        {st.freshness?.source === 'cache' && (
          <span className="badge badge-warn" title={st.freshness.reason}>
            cached · {formatAge(st.freshness.fetchedAt)}
          </span>
        )}
      </h2>
      {st.error && st.models.length === 0 ? (
        <ErrorState error={st.error} title="The Hub search failed" />
      ) : st.loading && st.models.length === 0 ? (
        <Loading label="Searching the Hub…" />
      ) : st.models.length === 0 ? (
        <Empty title="No models on the Hub match">Try fewer words or clear a filter.</Empty>
      ) : (
        <>
          <ol className="cat-hub-list">
            {st.models.map((m) => (
              <li key={m.id}>
                <a href={catalogueHref('model', m.id)} className="mono">
                  {m.id}
                </a>
                <span className="cat-hub-meta">
                  {m.pipeline_tag && <span className="badge">{m.pipeline_tag}</span>}
                  {m.library_name && <span className="badge">{m.library_name}</span>}
                  {m.downloads !== undefined && <span className="small muted">↓ {fmt.format(m.downloads)}</span>}
                  {m.likes !== undefined && <span className="small muted">♥ {fmt.format(m.likes)}</span>}
                </span>
              </li>
            ))}
          </ol>
          {st.error && <p className="field-error">{st.error.message}</p>}
          {st.next && (
            <button className="btn cat-more" onClick={() => void more()} disabled={st.loading}>
              {st.loading ? 'Loading…' : 'Load more'}
            </button>
          )}
        </>
      )}
    </section>
  );
}
