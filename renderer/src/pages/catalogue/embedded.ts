import type { HubKind } from '@shared/hub-kinds';
import type { CatalogueView } from '../../store/catalogue';

/** The embedded catalogue's repos of one Hub kind, by id (the task data lists Spaces as apps). */
export function embeddedRepos(view: CatalogueView, kind: HubKind): ReadonlyMap<string, unknown> {
  return kind === 'models' ? view.models : kind === 'datasets' ? view.datasets : view.apps;
}
