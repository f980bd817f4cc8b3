import { useEffect, useRef, useState } from 'react';
import { MODEL_NAME_REQUIRED, modelNameProblem } from '@shared/model-name';
import { formatBytes, percent } from '../../lib/format';
import { isActive, jobTotals, layerSpeed, usePulls, type Job } from '../../store/pulls';
import { ChatWithModel } from '../../features/engines/ChatWithModel';
import { formatDuration, formatSpeed } from './format';
import { PullNameBox } from './PullSuggestions';

/** `off`: why nothing can be pulled now (Ollama is not running); Pull is off and the form says so. */
export function PullForm({ initial, onDone, off }: { initial: string; onDone: () => void; off?: string }) {
  const [name, setName] = useState(initial);
  const [touched, setTouched] = useState(false);
  const pull = usePulls((s) => s.pull);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setName(initial), [initial]);
  useEffect(() => input.current?.focus(), []);
  const problem = name.trim() ? modelNameProblem(name) : touched ? MODEL_NAME_REQUIRED : undefined;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (off || !name.trim() || modelNameProblem(name)) return;
    pull(name);
    onDone();
  };

  return (
    <form className="card pull-form" onSubmit={submit} aria-label="Pull a model" data-testid="pull-form">
      <h2>Pull a model</h2>
      <div className="field">
        <label htmlFor="pull-name">Model</label>
        <div className="field-row">
          <PullNameBox value={name} onChange={setName} inputRef={input} invalid={!!problem} />
          <button className="btn btn-primary" type="submit" disabled={!!problem || !!off}>
            Pull
          </button>
          <button className="btn btn-ghost" type="button" onClick={onDone}>
            Close
          </button>
        </div>
        {problem || off ? (
          <p className="field-error" id="pull-help">
            {problem ?? off}
          </p>
        ) : (
          <p className="help" id="pull-help">
            A name from the Ollama library (name[:tag]) or a GGUF repository on the Hub as{' '}
            <span className="mono">hf.co/owner/repo:QUANT</span>; type for suggestions (↓ to choose). Ollama downloads
            it into its own model store.
          </p>
        )}
      </div>
    </form>
  );
}

function Bar({ value, label }: { value: number; label: string }) {
  return (
    <div
      className="bar"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
    >
      <div className="bar-fill" style={{ width: `${value}%` }} />
    </div>
  );
}

const stateLabel: Record<Job['state'], string> = {
  queued: 'queued',
  running: 'running',
  success: 'done',
  error: 'failed',
  cancelled: 'cancelled',
};

const verb: Record<Job['kind'], string> = { pull: 'Pull', push: 'Push', create: 'Create' };

/** `down`: the page's "Ollama is not running" message, shown in full below the transfers. */
function JobCard({ job, down }: { job: Job; down?: string }) {
  const { cancel, dismiss, pull, push } = usePulls();
  const t = jobTotals(job);
  const pct = percent(t.completed, t.total);
  const eta = t.speed ? (t.total - t.completed) / t.speed : undefined;
  const active = isActive(job);
  return (
    <li className={`job job-${job.state}`} data-testid="job" data-model={job.model} data-state={job.state}>
      <div className="job-head">
        <span className="badge">{verb[job.kind]}</span>
        <span className="mono job-model">{job.model}</span>
        <span className={`badge job-state job-state-${job.state}`}>{stateLabel[job.state]}</span>
        <span className="spacer" />
        {t.total > 0 && job.state !== 'success' && (
          <span className="muted small job-total">
            {formatBytes(t.completed)} / {formatBytes(t.total)} · {pct}%
            {active && t.speed ? ` · ${formatSpeed(t.speed)}` : ''}
            {active && eta !== undefined ? ` · ${formatDuration(eta)} left` : ''}
          </span>
        )}
        {job.kind === 'pull' && job.state === 'success' && (
          <ChatWithModel
            model={job.model}
            label="Chat with this model"
            className="btn btn-sm btn-primary"
            onModelsPage
          />
        )}
        {active ? (
          <button className="btn btn-ghost btn-sm" onClick={() => cancel(job.id)}>
            Cancel
          </button>
        ) : (
          <>
            {(job.state === 'error' || job.state === 'cancelled') && job.kind !== 'create' && (
              <button
                className="btn btn-sm"
                onClick={() => {
                  dismiss(job.id);
                  if (job.kind === 'pull') pull(job.model);
                  else push(job.model);
                }}
              >
                {job.kind === 'pull' ? 'Pull again' : 'Push again'}
              </button>
            )}
            <button
              className="btn btn-ghost btn-sm"
              onClick={() => dismiss(job.id)}
              aria-label={`Dismiss ${job.model}`}
            >
              Dismiss
            </button>
          </>
        )}
      </div>
      <p className="job-status small" data-testid="job-status" aria-live="polite">
        {job.state === 'queued'
          ? `Waiting: at most two transfers run at once.`
          : job.state === 'error' || job.state === 'cancelled'
            ? null
            : job.status}
      </p>
      {/* Never a bare "failed": why, in short when the page already says it in full. */}
      {job.state === 'error' && job.error && (
        <p className="field-error job-error" role="alert">
          {job.error.message === down ? (
            `Could not ${verb[job.kind].toLowerCase()}: Ollama is not running (see below).`
          ) : (
            <>
              {job.error.message}
              {job.error.status ? ` (HTTP ${job.error.status})` : ''}
            </>
          )}
        </p>
      )}
      {job.state === 'cancelled' && job.kind === 'pull' && (
        <p className="help">
          Cancelled. Ollama keeps the layers downloaded so far; pulling {job.model} again resumes where it stopped.
        </p>
      )}
      {active && job.layers.length > 0 && (
        <ul className="layers">
          {job.layers.map((l) => {
            const lp = percent(l.completed, l.total);
            const speed = layerSpeed(l);
            const left = speed ? (l.total - l.completed) / speed : undefined;
            return (
              <li key={l.digest} className="layer">
                <span className="mono small layer-id" title={l.digest}>
                  {l.digest.slice(7, 19)}
                </span>
                <Bar value={lp} label={`${job.model} layer ${l.digest.slice(7, 19)}`} />
                <span className="small muted layer-text">
                  {formatBytes(l.completed)} / {formatBytes(l.total)} · {lp}%{speed ? ` · ${formatSpeed(speed)}` : ''}
                  {left !== undefined ? ` · ${formatDuration(left)}` : ''}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

/**
 * Every pull, push and create of this session, newest last; finished ones stay until dismissed. `down` is the page's
 * "Ollama is not running" message: a job that failed that way says so in short rather than repeating it.
 */
export function JobsPanel({ down }: { down?: string }) {
  const jobs = usePulls((s) => s.jobs);
  const clearFinished = usePulls((s) => s.clearFinished);
  if (jobs.length === 0) return null;
  const finished = jobs.filter((j) => !isActive(j)).length;
  return (
    <section className="card jobs" aria-label="Transfers" data-testid="jobs">
      <div className="jobs-head">
        <h2>Transfers</h2>
        {finished > 0 && (
          <button className="btn btn-ghost btn-sm" onClick={clearFinished}>
            Clear finished
          </button>
        )}
      </div>
      <ul className="job-list">
        {jobs.map((j) => (
          <JobCard key={j.id} job={j} down={down} />
        ))}
      </ul>
    </section>
  );
}
