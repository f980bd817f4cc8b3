import type { ReactNode } from 'react';
import type { CatalogueLibrary, CatalogueTask, DemoItem } from '@shared/contract/catalogue';
import { ExternalLink } from '../../components/ExternalLink';
import { CatLink } from './links';

export interface TaskContext {
  libraries: Map<string, CatalogueLibrary>;
  modalityLabels: Map<string, string>;
}

function LibraryLinks({ ids, ctx }: { ids: string[]; ctx: TaskContext }) {
  if (ids.length === 0) return <p className="muted">None listed.</p>;
  return (
    <ul className="cat-chips" data-testid="task-libraries">
      {ids.map((id) => (
        <li key={id}>
          <CatLink kind="library" id={id}>
            {ctx.libraries.get(id)?.prettyLabel ?? id}
          </CatLink>
        </li>
      ))}
    </ul>
  );
}

function IdTable({
  title,
  testid,
  items,
  kind,
}: {
  title: string;
  testid: string;
  items: { id: string; description: string }[];
  kind?: 'model' | 'dataset' | 'app';
}) {
  return (
    <section className="card cat-section" data-testid={testid}>
      <h2>
        {title} <span className="badge">{items.length}</span>
      </h2>
      {items.length === 0 ? (
        <p className="muted">None listed in the task data.</p>
      ) : (
        <table className="table cat-table">
          <tbody>
            {items.map((x) => (
              <tr key={x.id}>
                <td className="mono cat-id">{kind ? <CatLink kind={kind} id={x.id} /> : x.id}</td>
                <td>{x.description || <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function DemoItemView({ item }: { item: DemoItem }) {
  if (item.type === 'text')
    return (
      <div className="cat-demo-text">
        {item.label && <div className="cat-demo-label">{item.label}</div>}
        <div className="cat-demo-content">{item.content}</div>
      </div>
    );
  if (item.filename)
    return (
      <div className="cat-demo-file" data-type={item.type}>
        <span className="badge">{item.type}</span>
        <span className="mono">{item.filename}</span>
        {item.label && <span className="muted"> · {item.label}</span>}
      </div>
    );
  if (item.type === 'chart' && Array.isArray(item.data))
    return (
      <div className="cat-demo-chart">
        {(item.data as { label?: string; score?: number }[]).map((d, i) => (
          <div className="cat-bar" key={i}>
            <span className="cat-bar-label">{d.label}</span>
            <span className="cat-bar-track">
              <span className="cat-bar-fill" style={{ width: `${Math.round((d.score ?? 0) * 100)}%` }} />
            </span>
            <span className="mono small">{(d.score ?? 0).toFixed(2)}</span>
          </div>
        ))}
      </div>
    );
  return (
    <div className="cat-demo-other">
      {item.label && <div className="cat-demo-label">{item.label}</div>}
      <span className="badge">{item.type}</span>
      {item.content && <div className="cat-demo-content">{item.content}</div>}
    </div>
  );
}

/** A task's page: everything @huggingface/tasks holds for it, and `actions` (links) in its title. Pure: props only. */
export function TaskView({ task, ctx, actions }: { task: CatalogueTask; ctx: TaskContext; actions?: ReactNode }) {
  return (
    <div className="cat-task" data-testid="task-view">
      <header className="cat-title">
        <h1>{task.label ?? task.name}</h1>
        <span className="badge" data-testid="task-modality">
          {ctx.modalityLabels.get(task.modality) ?? task.modality}
        </span>
        <span className="mono muted">{task.id}</span>
        {actions}
      </header>
      {task.summary && <p className="cat-summary">{task.summary}</p>}
      {task.youtubeId && (
        <p>
          <ExternalLink href={`https://www.youtube.com/watch?v=${encodeURIComponent(task.youtubeId)}`}>
            Watch the video about {task.label ?? task.name}
          </ExternalLink>
        </p>
      )}
      <div className="cat-grid">
        <section className="card cat-section">
          <h2>Libraries</h2>
          <LibraryLinks ids={task.libraries} ctx={ctx} />
          {task.subtasks.length > 0 && (
            <>
              <h3 className="cat-h3">Subtasks</h3>
              <ul className="cat-chips" data-testid="task-subtasks">
                {task.subtasks.map((s) => (
                  <li key={s.type} className="badge" title={s.type}>
                    {s.name}
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3 className="cat-h3">Widget models</h3>
          {task.widgetModels.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul className="cat-list" data-testid="task-widget-models">
              {task.widgetModels.map((m) => (
                <li key={m} className="mono">
                  <CatLink kind="model" id={m} />
                </li>
              ))}
            </ul>
          )}
        </section>
        {task.demo && (
          <section className="card cat-section" data-testid="task-demo">
            <h2>Demo</h2>
            <div className="cat-demo">
              <div>
                <h3 className="cat-h3">Inputs</h3>
                {task.demo.inputs.map((i, n) => (
                  <DemoItemView key={n} item={i} />
                ))}
              </div>
              <div>
                <h3 className="cat-h3">Outputs</h3>
                {task.demo.outputs.map((o, n) => (
                  <DemoItemView key={n} item={o} />
                ))}
              </div>
            </div>
          </section>
        )}
      </div>
      <IdTable title="Models" testid="task-models" items={task.models} kind="model" />
      <IdTable title="Datasets" testid="task-datasets" items={task.datasets} kind="dataset" />
      <IdTable title="Spaces" testid="task-spaces" items={task.spaces} kind="app" />
      <IdTable title="Metrics" testid="task-metrics" items={task.metrics} />
    </div>
  );
}

/** A pipeline type without task data (or a placeholder): what is known, never a blank page. */
export function NoTaskView({ task, ctx, actions }: { task: CatalogueTask; ctx: TaskContext; actions?: ReactNode }) {
  const libs = [...new Set([...task.libraries, ...task.declaredBy])];
  return (
    <div className="cat-task" data-testid="no-task-view">
      <header className="cat-title">
        <h1>{task.label ?? task.name}</h1>
        <span className="badge">{ctx.modalityLabels.get(task.modality) ?? task.modality}</span>
        <span className="mono muted">{task.id}</span>
        {actions}
      </header>
      <div className="card cat-note" role="note">
        <h2>No task page yet</h2>
        <p>
          {task.status === 'placeholder'
            ? 'The task data for this pipeline type is a placeholder: there is no summary, demo or curated list yet.'
            : 'The Hugging Face task data has no entry for this pipeline type yet: no summary, demo or curated models.'}{' '}
          Here is what is known about it.
        </p>
      </div>
      <section className="card cat-section">
        <h2>Libraries that declare it</h2>
        <LibraryLinks ids={libs} ctx={ctx} />
        {task.subtasks.length > 0 && (
          <>
            <h3 className="cat-h3">Subtasks</h3>
            <ul className="cat-chips">
              {task.subtasks.map((s) => (
                <li key={s.type} className="badge">
                  {s.name}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      {(task.models.length > 0 || task.datasets.length > 0) && (
        <>
          <IdTable title="Models" testid="task-models" items={task.models} kind="model" />
          <IdTable title="Datasets" testid="task-datasets" items={task.datasets} kind="dataset" />
        </>
      )}
    </div>
  );
}
