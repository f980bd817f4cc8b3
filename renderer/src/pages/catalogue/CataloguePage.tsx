import { Suspense, useEffect } from 'react';
import { PageBoundary } from '../../components/PageBoundary';
import { SkipLink } from '../../components/SkipLink';
import { ErrorState, Loading } from '../../components/States';
import { useCatalogue, type CatalogueView } from '../../store/catalogue';
import { prepareRoutes, useRoute } from '../../store/route';
import { useSettings } from '../../store/settings';
import { Browse } from './Browse';
import { Detail, prepareDetail } from './DetailPages';
import { EmbeddedMatches, HubSearch } from './HubSearch';
import { BackLink } from './links';
import { SearchBox } from './SearchBox';
import './catalogue.css';

prepareRoutes(prepareDetail);

/** Hub access on: the Hub's list is the main result list, with embedded tasks and libraries above it. */
function HubFirst({ view }: { view: CatalogueView }) {
  const query = useCatalogue((s) => s.query);
  return (
    <>
      <EmbeddedMatches view={view} query={query} />
      <HubSearch view={view} query={query} />
    </>
  );
}

export function CataloguePage() {
  const params = useRoute((s) => s.params);
  const { view, error, load } = useCatalogue();
  const hubOn = useSettings((s) => s.view?.values.hubAccess === 'online');
  useEffect(() => void load(), [load]);

  const [kind, ...rest] = params;
  const id = rest.join('/');
  const detail = !!kind && !!id;

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
