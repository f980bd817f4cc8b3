import { useRecent } from '../../store/recent';
import { catalogueHref } from '../../store/route';

/** The model and task pages opened lately (this browser's storage), newest first; nothing at all when there are none. */
export function RecentlyUsed() {
  const pages = useRecent((s) => s.pages);
  const clear = useRecent((s) => s.clear);
  if (pages.length === 0) return null;
  return (
    <section className="card cat-section start-section" data-testid="recently-used" aria-labelledby="recent-title">
      <h2 id="recent-title">Recently used</h2>
      <ul className="start-recent-list">
        {pages.map((p) => (
          <li key={`${p.kind}:${p.id}`}>
            <span className={`badge cat-kind cat-kind-${p.kind}`}>{p.kind}</span>{' '}
            <a className={p.kind === 'model' ? 'mono' : undefined} href={catalogueHref(p.kind, p.id)}>
              {p.label ?? p.id}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-ghost start-clear" onClick={clear}>
        Clear this list
      </button>
    </section>
  );
}
