import { Suspense, useEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { OptionSelect } from '../../components/OptionSelect';
import { PageBoundary } from '../../components/PageBoundary';
import { RadioGroup } from '../../components/RadioGroup';
import { SkipLink } from '../../components/SkipLink';
import { Empty, ErrorState, Loading } from '../../components/States';
import { libraryOptions, taskOptions, useCatalogue, type CatalogueView } from '../../store/catalogue';
import { prepareRoutes, useRoute, type Route } from '../../store/route';
import { optionProps, SEARCH_LISTBOX_ID, useSearchOptions } from '../../store/search-listbox';
import { useSettings } from '../../store/settings';
import { prefetchModel, prefetchRepo } from '../../store/hub-answers';
import { preloadWhenIdle } from '../../lib/idle-preload';
import { lazyComponent } from '../../lib/lazy-component';
import { loadWorkbench } from '../../features/snippets/SnippetWorkbench';
import { EmbeddedMatches, HubSearch } from './HubSearch';
import { BackLink, catalogueHref, CatLink } from './links';
import { SearchBox } from './SearchBox';
import { kindLabels, searchKinds, type SearchKind, type SearchRecord } from '../../lib/catalogue-search';
import { useSearch } from './useSearch';
import './catalogue.css';

// The detail pages (and what they bring: markdown, sanitising, fit checks) load on first use, not with the first
// screen: the catalogue's start-up JS is only what the task groups and the search need.
const item = lazyComponent(
  () => import('./ItemPage'),
  (m) => m.ItemPage,
);
const details = {
  task: lazyComponent(
    () => import('./TaskPage'),
    (m) => m.TaskPage,
  ),
  library: lazyComponent(
    () => import('./LibraryView'),
    (m) => m.LibraryView,
  ),
  // A model page shows "Use this model" in its first render: the workbench's code comes with the page's (a failure
  // to load it is the workbench's to show, when it renders).
  model: lazyComponent(
    () => Promise.all([import('./ModelPage'), loadWorkbench().catch(() => undefined)]).then(([page]) => page),
    (m) => m.ModelPage,
  ),
  dataset: item,
  app: item,
};

/** The catalogue detail page a route names, if any. */
function detailOf({ page, params: [kind, ...rest] }: Route) {
  if (page !== 'catalogue' || rest.length === 0 || !kind || !Object.hasOwn(details, kind)) return undefined;
  return { kind: kind as keyof typeof details, id: rest.join('/') };
}

/**
 * Prepares a detail page: its code, and for a repo page its Hub calls (details and card). Its address waits for what
 * this returns (up to PREPARE_MS; see lazyComponent for why no Suspense fallback should show): a Hub-only repo's page
 * from main's cache then appears complete in one render. A repo of the embedded catalogue renders at once from what
 * it has, its Hub details joining it. Resting on a link to the page starts the same work earlier (see prepareRoutes),
 * so a live Hub's answer can be in by the click.
 */
function prepareDetail(route: Route): Promise<unknown> | undefined {
  const detail = detailOf(route);
  if (!detail) return undefined;
  const { kind, id } = detail;
  const code = details[kind].preload();
  const view = useCatalogue.getState().view;
  let answers: Promise<unknown> | undefined;
  if (kind === 'model') answers = prefetchModel(id);
  if (kind === 'dataset' || kind === 'app') answers = prefetchRepo(kind === 'app' ? 'space' : 'dataset', id);
  const embedded = kind === 'model' ? view?.models : kind === 'dataset' ? view?.datasets : view?.apps;
  return answers && !embedded?.has(id) ? Promise.all([code, answers]) : code;
}
prepareRoutes(prepareDetail);
// A model page (and its workbench, not its editor) and a task page are where the catalogue leads first.
preloadWhenIdle(details.model.preload);
preloadWhenIdle(details.task.preload);
// The detail page the app opens on starts loading now, beside the first calls to main.
{
  const detail = detailOf(useRoute.getState());
  if (detail) void details[detail.kind].preload().catch(() => undefined); // tried again by its render
}

const kindChoices = ['all', ...searchKinds] as const;
const kindBadge: Record<SearchKind, string> = {
  task: 'task',
  library: 'library',
  model: 'model',
  dataset: 'dataset',
  app: 'Space',
};

function ResultRow({ r, view, option }: { r: SearchRecord; view: CatalogueView; option: object }) {
  return (
    <a className="cat-row" href={catalogueHref(r.kind, r.id)} data-kind={r.kind} {...option}>
      <span className={`badge cat-kind cat-kind-${r.kind}`}>{kindBadge[r.kind]}</span>
      <span className="cat-row-main">
        <span className="cat-row-title">
          <span className={r.kind === 'task' || r.kind === 'library' ? '' : 'mono'}>{r.label}</span>
          {r.label !== r.id && <span className="mono small muted">{r.id}</span>}
        </span>
        {r.detail && <span className="cat-row-detail">{r.detail}</span>}
      </span>
      {r.kind !== 'task' && r.tasks[0] && (
        <span className="badge cat-row-task">{view.tasks.get(r.tasks[0])?.label ?? r.tasks[0]}</span>
      )}
    </a>
  );
}

function Results({ view, indices }: { view: CatalogueView; indices: number[] }) {
  const parent = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({
    count: indices.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 58,
    overscan: 12,
  });
  const list = useMemo(
    () => ({
      count: indices.length,
      scrollTo: (i: number) => virt.scrollToIndex(i),
      href: (i: number) => {
        const r = view.index.records[indices[i]];
        return catalogueHref(r.kind, r.id);
      },
    }),
    [indices, view, virt],
  );
  const active = useSearchOptions(list);
  if (indices.length === 0) return <Empty title="Nothing matches">Check the spelling, or clear a filter.</Empty>;
  return (
    <div
      ref={parent}
      className="cat-results"
      data-testid="catalogue-results"
      id={SEARCH_LISTBOX_ID}
      role="listbox"
      aria-label="Results in the embedded catalogue"
      style={{ height: `min(calc(100vh - 230px), ${virt.getTotalSize() + 2}px)` }}
    >
      <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
        {virt.getVirtualItems().map((v) => (
          <div
            key={v.key}
            role="none"
            className="cat-row-wrap"
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              height: v.size,
              transform: `translateY(${v.start}px)`,
            }}
          >
            <ResultRow
              r={view.index.records[indices[v.index]]}
              view={view}
              option={optionProps(v.index, active, indices.length)}
            />
          </div>
        ))}
      </div>
    </div>
  );
}

function TaskGroups({ view }: { view: CatalogueView }) {
  return (
    <div className="cat-groups" data-testid="task-groups">
      {view.data.modalities.map((m) => {
        const tasks = view.data.tasks.filter((t) => t.modality === m.id);
        if (tasks.length === 0) return null;
        return (
          <section key={m.id} className="card cat-group">
            <h2>
              {m.label} <span className="badge">{tasks.length}</span>
            </h2>
            <ul className="cat-group-list">
              {tasks.map((t) => (
                <li key={t.id}>
                  <CatLink kind="task" id={t.id}>
                    {t.label ?? t.name}
                  </CatLink>
                  {(t.status === 'missing' || t.status === 'placeholder') && (
                    <span className="small muted"> · no page yet</span>
                  )}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

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

function Browse({ view }: { view: CatalogueView }) {
  const { query, filters, setFilters } = useCatalogue();
  const indices = useSearch(view.index, query, filters);
  const filtered = !!(filters.kind || filters.modality || filters.task || filters.library);
  const counts: Record<SearchKind, number> = {
    task: view.data.tasks.length,
    library: view.data.libraries.length,
    model: view.data.models.length,
    dataset: view.data.datasets.length,
    app: view.data.apps.length,
  };

  return (
    <>
      <div className="cat-filters" role="group" aria-label="Filters">
        <RadioGroup
          label="Kind"
          items={kindChoices}
          value={filters.kind ?? 'all'}
          onChange={(k) => setFilters({ kind: k === 'all' ? undefined : k })}
          testid={(k) => (k === 'all' ? undefined : `kind-${k}`)}
        >
          {(k) =>
            k === 'all' ? (
              'All'
            ) : (
              <>
                {kindLabels[k]} <span className="cat-count">{counts[k]}</span>
              </>
            )
          }
        </RadioGroup>
        <OptionSelect
          label="Modality"
          any="Any modality"
          value={filters.modality}
          options={view.data.modalities.map((m) => ({ value: m.id, label: m.label }))}
          onChange={(modality) => setFilters({ modality })}
        />
        <OptionSelect
          label="Task"
          any="Any task"
          value={filters.task}
          options={taskOptions(view)}
          onChange={(task) => setFilters({ task })}
        />
        <OptionSelect
          label="Library"
          any="Any library"
          value={filters.library}
          options={libraryOptions(view)}
          onChange={(library) => setFilters({ library })}
        />
        {filtered && (
          <button
            className="btn btn-ghost"
            onClick={() => setFilters({ kind: undefined, modality: undefined, task: undefined, library: undefined })}
          >
            Clear filters
          </button>
        )}
      </div>
      <p className="muted small cat-summary-line">
        Hub access is off: searching the embedded catalogue. <a href="#/settings">Change in Settings</a>
      </p>
      {!query.trim() && !filtered ? (
        <TaskGroups view={view} />
      ) : (
        <>
          <p className="muted small cat-summary-line" data-testid="result-count">
            {indices.length} result{indices.length === 1 ? '' : 's'} in the embedded catalogue
          </p>
          <Results view={view} indices={indices} />
          {query.trim() && <HubSearch view={view} query={query} cachedOnly />}
        </>
      )}
    </>
  );
}

function Detail({ kind, id, view }: { kind: string; id: string; view: CatalogueView }) {
  switch (kind) {
    case 'task':
      return <details.task.Component id={id} view={view} />;
    case 'library': {
      const lib = view.libraries.get(id);
      return lib ? (
        <details.library.Component lib={lib} tasks={view.tasks} />
      ) : (
        <Empty title={`No library "${id}"`}>@huggingface/tasks does not list this library.</Empty>
      );
    }
    case 'model':
      return <details.model.Component key={id} id={id} view={view} />;
    case 'dataset':
      return <item.Component kind="dataset" id={id} item={view.datasets.get(id)} tasks={view.tasks} />;
    case 'app':
      return <item.Component kind="app" id={id} item={view.apps.get(id)} tasks={view.tasks} />;
    default:
      return (
        <Empty title="Unknown catalogue page">
          Go back to the <a href="#/catalogue">catalogue</a>.
        </Empty>
      );
  }
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
