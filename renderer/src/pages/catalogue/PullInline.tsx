import { isActive, jobTotals, usePulls } from '../../store/pulls';
import { ChatWithModel } from '../../features/engines/ChatWithModel';
import { formatBytes, percent } from '../../lib/format';
import { formatSpeed } from '../models/format';

/** "Run locally with Ollama" on the model page: the pull runs here (progress, speed, cancel), then "Chat now". */
export function PullInline({ name }: { name: string }) {
  const job = usePulls((s) => [...s.jobs].reverse().find((j) => j.kind === 'pull' && j.model === name));
  const { pull, cancel, dismiss } = usePulls();
  const start = () => {
    if (job && !isActive(job)) dismiss(job.id);
    pull(name);
  };
  if (!job || job.state === 'cancelled' || job.state === 'error') {
    return (
      <div className="pull-inline" data-testid="pull-inline">
        <p className="cat-actions">
          <button className="btn btn-primary" onClick={start} data-testid="run-ollama">
            {job ? 'Pull again' : 'Run locally with Ollama'}
          </button>
          <span className="mono small muted">{name}</span>
        </p>
        {job?.state === 'cancelled' && (
          <p className="help" data-testid="pull-state">
            Cancelled. Ollama keeps the layers downloaded so far: pulling again resumes.
          </p>
        )}
        {job?.state === 'error' && (
          <p className="field-error" role="alert" data-testid="pull-state">
            The pull failed: {job.error?.message ?? 'unknown error'}
            {job.error?.status ? ` (HTTP ${job.error.status})` : ''}
          </p>
        )}
      </div>
    );
  }
  if (job.state === 'success') {
    return (
      <div className="pull-inline" data-testid="pull-inline">
        <p className="cat-actions" role="status">
          <span className="badge badge-ok" data-testid="pull-state">
            pulled
          </span>
          <span className="mono small">{name}</span>
          <ChatWithModel model={name} label="Chat now" className="btn btn-primary" testid="chat-now" />
        </p>
      </div>
    );
  }
  const t = jobTotals(job);
  const pct = percent(t.completed, t.total);
  return (
    <div className="pull-inline" data-testid="pull-inline">
      <div className="cat-actions">
        <span className="mono small">{name}</span>
        <button className="btn btn-ghost btn-sm" onClick={() => cancel(job.id)} data-testid="pull-cancel">
          Cancel
        </button>
      </div>
      <div
        className="bar"
        role="progressbar"
        aria-label={`Pulling ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="bar-fill" style={{ width: `${pct}%` }} />
      </div>
      <p className="small muted" aria-live="polite" data-testid="pull-state">
        {job.state === 'queued' ? 'Waiting: at most two transfers run at once.' : job.status}
        {t.total > 0 && ` · ${formatBytes(t.completed)} / ${formatBytes(t.total)} · ${pct}%`}
        {t.speed ? ` · ${formatSpeed(t.speed)}` : ''}
      </p>
    </div>
  );
}
