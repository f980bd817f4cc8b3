import type { CatalogueView } from '../../store/catalogue';
import { CatLink } from './links';

/** The embedded tasks, grouped by modality: the landing offline with nothing typed, and atop the online start page. */
export function TaskGroups({ view }: { view: CatalogueView }) {
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
