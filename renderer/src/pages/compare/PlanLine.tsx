import type { CompareSetInput } from '@shared/contract/compare';
import { useComparePlan } from '../../hooks/compare';

/** The plan's reason while a blind comparison is not voted on: it names models, their sizes and whether they fit. */
const blindReason = (mode: 'parallel' | 'sequential') =>
  `${mode === 'parallel' ? 'The panes answer together' : 'The panes answer one after another'}; why is shown after your vote.`;

/**
 * How the panes will run, said before sending: together (they fit in memory at once) or one after another. `blind`:
 * only that, as a fit verdict with a model's name or size would tell the panes apart.
 */
export function PlanLine({ set, ready, blind }: { set: CompareSetInput; ready: boolean; blind?: boolean }) {
  const q = useComparePlan(set, ready);
  if (!ready) return null;
  const plan = q.state === 'ok' ? q.data : q.last;
  return (
    <p className="cmp-plan small" role="status" data-testid="compare-plan">
      {q.state === 'error' ? (
        <span className="field-error">How the panes would run is not known: {q.error.message}</span>
      ) : plan ? (
        <>
          <strong>{plan.mode === 'parallel' ? 'Run together' : 'One after another'}:</strong>{' '}
          {blind ? blindReason(plan.mode) : plan.reason}
        </>
      ) : (
        <span className="muted">Working out whether the models fit in memory together…</span>
      )}
    </p>
  );
}
