import { useTopHubModels } from '../../hooks/hub';
import { ErrorState } from '../../components/States';
import { formatAge } from '../../lib/format';
import { catalogueHref } from '../../store/route';

const fmt = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const TOP = 10;

/** A library page's most downloaded Hub models (`library=<id>&sort=downloads`); from the cache when offline. */
export function TopHubModels({ library }: { library: string }) {
  const { live, reload } = useTopHubModels(library, TOP);
  return (
    <section className="card cat-section" data-testid="library-top-models" aria-busy={live.state === 'loading'}>
      <h2>
        Top models on the Hub{' '}
        {live.state === 'ok' && live.freshness.source === 'cache' && (
          <span className="badge badge-warn" title={live.freshness.reason}>
            cached · {formatAge(live.freshness.fetchedAt)}
          </span>
        )}
      </h2>
      {live.state === 'loading' ? (
        <p className="muted" role="status">
          Asking the Hub…
        </p>
      ) : live.state === 'off' ? (
        <p className="muted">
          Hub access is off, and this list was not seen before. <a href="#/settings">Change in Settings</a>
        </p>
      ) : live.state === 'error' ? (
        <ErrorState error={live.error} title="The Hub did not answer" onRetry={reload} />
      ) : !live.results.length ? (
        <p className="muted">The Hub lists no models for this library.</p>
      ) : (
        <ol className="cat-top-models">
          {live.results.map((m) => (
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
