import { hubKindInfo, hubKindOfPage } from '@shared/hub-kinds';
import { Empty } from '../../components/States';
import { lazyComponent } from '../../lib/lazy-component';
import { loadWorkbench } from '../../features/snippets/SnippetWorkbench';
import { useCatalogue, type CatalogueView } from '../../store/catalogue';
import { prefetchModel, prefetchRepo } from '../../store/hub-answers';
import type { Route } from '../../store/route';
import { embeddedRepos } from './embedded';

// The detail pages (and what they bring: markdown, sanitising, fit checks) load on first use, not with the first
// screen: the catalogue's start-up JS is only what the task groups and the search need.
const item = lazyComponent(
  () => import('./ItemPage'),
  (m) => m.ItemPage,
);
export const details = {
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
export function detailOf({ page, params: [kind, ...rest] }: Route) {
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
export function prepareDetail(route: Route): Promise<unknown> | undefined {
  const detail = detailOf(route);
  if (!detail) return undefined;
  const { kind, id } = detail;
  const code = details[kind].preload();
  if (kind === 'task' || kind === 'library') return code;
  const hubKind = hubKindOfPage(kind);
  const answers = hubKind === 'models' ? prefetchModel(id) : prefetchRepo(hubKindInfo[hubKind].repo, id);
  const view = useCatalogue.getState().view;
  return answers && !(view && embeddedRepos(view, hubKind).has(id)) ? Promise.all([code, answers]) : code;
}

/** The detail page of one task, library, model, dataset or Space (`#/catalogue/<kind>/<id>`). */
export function Detail({ kind, id, view }: { kind: string; id: string; view: CatalogueView }) {
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
      return <item.Component kind="datasets" id={id} item={view.datasets.get(id)} tasks={view.tasks} />;
    case 'app':
      return <item.Component kind="spaces" id={id} item={view.apps.get(id)} tasks={view.tasks} />;
    default:
      return (
        <Empty title="Unknown catalogue page">
          Go back to the <a href="#/catalogue">catalogue</a>.
        </Empty>
      );
  }
}
