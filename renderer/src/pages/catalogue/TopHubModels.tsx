import { useCallback, useEffect, useState } from 'react';
import type { HubSearchOutput } from '@shared/contract/hub-search';
import type { AppError } from '@shared/errors';
import { topHubModels } from '../../hooks/catalogue';
import { ErrorState } from '../../components/States';
import { formatAge } from '../../lib/format';
import { useSettings } from '../../store/settings';
import { catalogueHref } from './links';

const fmt = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const TOP = 10;

/** A library page's most downloaded Hub models (`library=<id>&sort=downloads`); from the cache when offline. */
export function TopHubModels({ library }: { library: string }) {
  const access = useSettings((s) => s.view?.values.hubAccess);
  const [st, setSt] = useState<{ res?: HubSearchOutput; error?: AppError; loading: boolean }>({ loading: true });
  const load = useCallback(() => {
    let live = true;
    setSt({ loading: true });
    topHubModels(library, TOP)
      .then((res) => live && setSt({ res, loading: false }))
      .catch((e: unknown) => live && setSt({ error: e as AppError, loading: false }));
    return () => {
      live = false;
    };
  }, [library]);
  useEffect(() => load(), [load, access]);

  const off = (st.error?.details as { reason?: string } | undefined)?.reason === 'hub-off';
  return (
    <section className="card cat-section" data-testid="library-top-models" aria-busy={st.loading}>
      <h2>
        Top models on the Hub{' '}
        {st.res?.freshness.source === 'cache' && (
          <span className="badge badge-warn" title={st.res.freshness.reason}>
            cached · {formatAge(st.res.freshness.fetchedAt)}
          </span>
        )}
      </h2>
      {st.loading ? (
        <p className="muted" role="status">
          Asking the Hub…
        </p>
      ) : off ? (
        <p className="muted">
          Hub access is off, and this list was not seen before. <a href="#/settings">Change in Settings</a>
        </p>
      ) : st.error ? (
        <ErrorState error={st.error} title="The Hub did not answer" onRetry={load} />
      ) : !st.res?.results.length ? (
        <p className="muted">The Hub lists no models for this library.</p>
      ) : (
        <ol className="cat-top-models">
          {st.res.results.map((m) => (
            <li key={m.id}>
              <a className="mono" href={catalogueHref('model', m.id)}>
                {m.id}
              </a>
              <span className="small muted">
                {m.downloads !== undefined && ` ↓ ${fmt.format(m.downloads)}`}
                {m.likes !== undefined && ` · ♥ ${fmt.format(m.likes)}`}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
