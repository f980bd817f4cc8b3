import { Empty } from '../../components/States';
import type { CatalogueView } from '../../store/catalogue';
import { CatLink } from './links';
import { NoTaskView, TaskView } from './TaskView';

/** What a task id resolves to: its own page, the canonical task's page, or a "no task page yet" view. */
export function TaskPage({ id, view }: { id: string; view: CatalogueView }) {
  const task = view.tasks.get(id);
  if (!task)
    return (
      <Empty title={`No task "${id}"`}>
        @huggingface/tasks has no pipeline type with this id. Browse the <a href="#/catalogue">catalogue</a>.
      </Empty>
    );
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
        {targetHasPage ? <TaskView task={target!} ctx={view} /> : <TaskView task={task} ctx={view} />}
      </>
    );
  }
  if (task.status === 'missing' || task.status === 'placeholder') return <NoTaskView task={task} ctx={view} />;
  return <TaskView task={task} ctx={view} />;
}
