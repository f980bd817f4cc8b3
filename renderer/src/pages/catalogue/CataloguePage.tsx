import { Suspense, useEffect } from 'react';
import { PageBoundary } from '../../components/PageBoundary';
import { SkipLink } from '../../components/SkipLink';
import { ErrorState, Loading } from '../../components/States';
import { useCatalogue, type CatalogueView } from '../../store/catalogue';
import { useHubSearch } from '../../store/hub-search';
import { useRecent } from '../../store/recent';
import { prepareRoutes, useRoute } from '../../store/route';
import { useSettings } from '../../store/settings';
import { Browse } from './Browse';
import { Detail, prepareDetail } from './DetailPages';
import { EmbeddedMatches, HubSearch } from './HubSearch';
import { BackLink } from './links';
import { SearchBox } from './SearchBox';
import { StartPage } from './StartPage';
import './catalogue.css';

prepareRoutes(prepareDetail);

/**
 * Hub access on: the Hub's list is the main result list, with embedded tasks and libraries above it; with nothing
 * typed or filtered, the start page above the Hub's trending lists.
 */
function HubFirst({ view }: { view: CatalogueView }) {
  const query = useCatalogue((s) => s.query);
  const filtered = useHubSearch((s) =>
    Object.values(s.filters).some((v) => v !== undefined && v !== '' && v !== false),
  );
  return (
    <>
      {!query.trim() && !filtered && <StartPage view={view} />}
      <EmbeddedMatches view={view} query={query} />
      <HubSearch view={view} query={query} />
    </>
  );
}

/** Remembers the model and task pages opened, for the start page's "Recently used". */
function useRememberVisit(view: CatalogueView | undefined, kind: string | undefined, id: string) {
  const visit = useRecent((s) => s.visit);
  useEffect(() => {
    if (!view || !id) return;
    if (kind === 'model') visit({ kind, id });
    else if (kind === 'task') {
      const task = view.tasks.get(id);
      if (task) visit({ kind, id, label: task.label ?? task.name });
    }
  }, [view, kind, id, visit]);
}

export function CataloguePage() {
  const params = useRoute((s) => s.params);
  const { view, error, load } = useCatalogue();
  const hubOn = useSettings((s) => s.view?.values.hubAccess === 'online');
  useEffect(() => void load(), [load]);

  const [kind, ...rest] = params;
  const id = rest.join('/');
  const detail = !!kind && !!id;
  useRememberVisit(view, kind, id);

  return (
    <section className="page cat-page">
      <header className="page-header">
        <h1>Catalogue</h1>
        <SearchBox hubOn={hubOn} detail={detail} />
      </header>
      {error ? (
        <ErrorState error={error} title="Could not load the catalogue" onRetry={() => void load()} />
      ) : !view ? (
        <Loading label="Loading the catalogue…" />
      ) : detail ? (
        <div className="cat-detail">
          {kind === 'model' && (
            <SkipLink target="use-this-model" prefer="[data-testid=copy-snippet]" testid="skip-use">
              Skip to Use this model
            </SkipLink>
          )}
          <BackLink />
          <PageBoundary key={`${kind}/${id}`}>
            <Suspense fallback={<Loading />}>
              <Detail kind={kind} id={id} view={view} />
            </Suspense>
          </PageBoundary>
        </div>
      ) : hubOn ? (
        <HubFirst view={view} />
      ) : (
        <Browse view={view} />
      )}
    </section>
  );
}
