import { useScoreboard } from '../../hooks/compare';
import { Loading } from '../../components/States';

/** Wins, losses and ties per model and quant on this machine, from blind votes. */
export function Scoreboard({ version }: { version: number }) {
  const q = useScoreboard(version);
  return (
    <section className="card cmp-side" aria-labelledby="cmp-scoreboard" data-testid="scoreboard">
      <h2 id="cmp-scoreboard">Scoreboard</h2>
      {q.state === 'loading' && !q.last ? (
        <Loading label="Counting votes…" />
      ) : q.state === 'error' ? (
        <p className="field-error" role="alert">
          The scoreboard could not be read: {q.error.message}{' '}
          <button className="btn btn-xs" onClick={q.reload}>
            Retry
          </button>
        </p>
      ) : !q.last?.rows.length ? (
        <p className="muted small">No votes yet. Turn on Blind, compare, and vote for the better answer.</p>
      ) : (
        <table className="cmp-table">
          <caption className="muted small">On {q.last.machine}</caption>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Quant</th>
              <th scope="col">Wins</th>
              <th scope="col">Losses</th>
              <th scope="col">Ties</th>
            </tr>
          </thead>
          <tbody>
            {q.last.rows.map((r) => (
              <tr key={`${r.backend} ${r.label}`}>
                <td title={r.label}>{r.label}</td>
                <td>{r.quant ?? '—'}</td>
                <td>{r.wins}</td>
                <td>{r.losses}</td>
                <td>{r.ties}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
