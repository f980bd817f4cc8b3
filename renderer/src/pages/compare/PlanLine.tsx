import type { CompareSetInput } from '@shared/contract/compare';
import { useComparePlan } from '../../hooks/compare';

/** How the panes will run, said before sending: together (they fit in memory at once) or one after another. */
export function PlanLine({ set, ready }: { set: CompareSetInput; ready: boolean }) {
  const q = useComparePlan(set, ready);
  if (!ready) return null;
  const plan = q.state === 'ok' ? q.data : q.last;
  return (
    <p className="cmp-plan small" role="status" data-testid="compare-plan">
      {q.state === 'error' ? (
        <span className="field-error">How the panes would run is not known: {q.error.message}</span>
      ) : plan ? (
        <>
          <strong>{plan.mode === 'parallel' ? 'Run together' : 'One after another'}:</strong> {plan.reason}
        </>
      ) : (
        <span className="muted">Working out whether the models fit in memory together…</span>
      )}
    </p>
  );
}
