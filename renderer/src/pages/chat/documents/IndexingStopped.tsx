import { useEffect } from 'react';
import type { KnowledgeBase } from '@shared/contract/documents';
import { replyActionOf } from '@shared/reply-action';
import { useDocActions } from '../../../hooks/documents';
import { isActive, jobTotals, usePulls } from '../../../store/pulls';

/**
 * Why a base's indexing cannot go on, in the strip where it is seen, with the way on: pull the model it needs,
 * choose one (opens the panel's picker), or Retry (Ollama started again, say).
 */
export function IndexingStopped({ base, onChoose }: { base: KnowledgeBase; onChoose(): void }) {
  const { resume } = useDocActions();
  const error = base.error!;
  const action = replyActionOf(error.details);
  const pullModel = action?.kind === 'pull' ? action.model : undefined;
  const job = usePulls((s) => (pullModel ? s.jobs.findLast((j) => j.model === pullModel) : undefined));
  const pull = usePulls((s) => s.pull);
  const pulled = job?.state === 'success';
  // Pulled: indexing goes on by itself (main takes the model just installed).
  useEffect(() => {
    if (pulled) void resume.run(base.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pulled, base.id]);
  const totals = job && isActive(job) ? jobTotals(job) : undefined;
  return (
    <div className="doc-stopped small" role="alert" data-testid="doc-stopped">
      <span className="doc-stopped-why">{error.message}</span>
      <span className="doc-stopped-actions">
        {pullModel &&
          (totals ? (
            <span role="status">
              Pulling {pullModel}… {totals.total ? `${Math.round((totals.completed / totals.total) * 100)}%` : ''}
            </span>
          ) : (
            <button className="btn btn-xs btn-primary" onClick={() => pull(pullModel)}>
              Pull {pullModel}
            </button>
          ))}
        <button className="btn btn-xs" onClick={onChoose}>
          Choose a model…
        </button>
        {!pullModel && (
          <button className="btn btn-xs" disabled={resume.busy} onClick={() => void resume.run(base.id)}>
            Retry
          </button>
        )}
      </span>
      {job?.state === 'error' && <span className="doc-error">{job.error?.message}</span>}
      {resume.error && <span className="doc-error">{resume.error.message}</span>}
    </div>
  );
}
