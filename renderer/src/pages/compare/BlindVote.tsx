import type { RunView } from '../../store/compare';
import { useVote } from '../../hooks/compare';

/** After a blind comparison: which answer was better (or a tie). The vote reveals the names. */
export function BlindVote({ run, onVoted }: { run: RunView; onVoted(): void }) {
  const vote = useVote();
  if (!run.id) return null;
  const id = run.id;
  const cast = async (winner: number | null) => {
    if (await vote.run(id, winner)) onVoted();
  };
  const letters = run.slots.map((s) => s.label.replace(/^Model /, ''));
  return (
    <div className="cmp-vote" role="group" aria-label="Which answer is better?" data-testid="blind-vote">
      <span>Which answer is better?</span>
      {letters.map((l, i) => (
        <button key={i} className="btn" disabled={vote.busy} onClick={() => void cast(i)}>
          {l} is better
        </button>
      ))}
      <button className="btn" disabled={vote.busy} onClick={() => void cast(null)}>
        Tie
      </button>
      {vote.error && (
        <span className="field-error" role="alert">
          {vote.error.message}
        </span>
      )}
    </div>
  );
}
