import { Empty } from '../../components/States';
import { useCatalogue, type CatalogueView } from '../../store/catalogue';
import { useHubSearch } from '../../store/hub-search';
import { hrefFor } from '../../store/route';
import { useSettings } from '../../store/settings';
import { CatLink } from './links';
import { NoTaskView, TaskView } from './TaskView';

/** Hub access on: the catalogue's Hub list, filtered by this task alone (models, and datasets on their tab). */
function BrowseOnHub({ task }: { task: string }) {
  const hubOn = useSettings((s) => s.view?.values.hubAccess === 'online');
  if (!hubOn) return null;
  // The Hub list is not on screen here: setting its state directly sends nothing until the catalogue shows it.
  const open = () => {
    useCatalogue.getState().setQuery('');
    useHubSearch.setState({ kind: 'models', filters: { task } });
  };
  return (
    <a className="cat-hub-link" href={hrefFor('catalogue')} onClick={open} data-testid="task-browse-hub">
      Browse these on the Hub →
    </a>
  );
}

/** What a task id resolves to: its own page, the canonical task's page, or a "no task page yet" view. */
export function TaskPage({ id, view }: { id: string; view: CatalogueView }) {
  const task = view.tasks.get(id);
  if (!task)
    return (
      <Empty title={`No task "${id}"`}>
        @huggingface/tasks has no pipeline type with this id. Browse the <a href="#/catalogue">catalogue</a>.
      </Empty>
    );
  const hub = <BrowseOnHub task={id} />;
  if (task.status === 'canonical' && task.canonicalId) {
    const target = view.tasks.get(task.canonicalId);
    const targetName = target ? (target.label ?? target.name) : task.canonicalId;
    const targetHasPage = target?.status === 'ok';
    return (
      <>
        <div className="cat-redirect" role="note" data-testid="canonical-note">
          <strong>{task.label ?? task.name}</strong> is covered by the{' '}
          <CatLink kind="task" id={task.canonicalId}>
            {targetName}
          </CatLink>{' '}
          page
          {targetHasPage
            ? '; it is shown here.'
            : `, which has no task data yet; ${task.label ?? task.name}'s own data is shown here.`}
        </div>
        {targetHasPage ? (
          <TaskView task={target!} ctx={view} actions={hub} />
        ) : (
          <TaskView task={task} ctx={view} actions={hub} />
        )}
      </>
    );
  }
  if (task.status === 'missing' || task.status === 'placeholder')
    return <NoTaskView task={task} ctx={view} actions={hub} />;
  return <TaskView task={task} ctx={view} actions={hub} />;
}
