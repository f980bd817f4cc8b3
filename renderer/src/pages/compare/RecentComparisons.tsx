import { useOpenComparison, useRecentComparisons } from '../../hooks/compare';
import { formatDate } from '../../lib/format';
import { SideList } from './SideList';

/** The latest comparisons, to open again (answers, figures and vote as they were). */
export function RecentComparisons({ version }: { version: number }) {
  const q = useRecentComparisons(version);
  const open = useOpenComparison();
  return (
    <section className="card cmp-side" aria-labelledby="cmp-recent" data-testid="recent-comparisons">
      <h2 id="cmp-recent">Recent comparisons</h2>
      <SideList q={q} what="recent comparisons" empty="None yet.">
        {(runs) =>
          runs.map((r) => (
            <li key={r.id}>
              <button
                className="btn btn-ghost btn-xs cmp-list-name"
                disabled={open.busy}
                onClick={() => void open.run(r.id)}
              >
                {r.prompt}
              </button>
              <span className="muted small" title={r.labels.join(', ')}>
                {r.blind && !r.voted ? `${r.labels.length} models, blind` : r.labels.join(' · ')} ·{' '}
                {formatDate(r.createdAt)}
              </span>
            </li>
          ))
        }
      </SideList>
      {open.error && (
        <p className="field-error" role="alert">
          {open.error.message}
        </p>
      )}
    </section>
  );
}
