import type { EngineStatus } from '@shared/contract/local-engine';
import { plural } from '@shared/plural';
import type { AppErrorShape } from '@shared/errors';
import { formatAge, formatBytes } from '../../../lib/format';
import { ErrorLine } from '../Modal';
import { formatUntil } from '../format';
import { EngineThreads } from './EngineThreads';
import { formatActivity, formatTokens, keepAliveOptions } from './format';
import type { EngineControl } from './types';

/**
 * What the built-in engine holds now: each loaded model with its memory and how many requests it answers, Unload,
 * the backend, the keep-alive, the CPU threads, the engine's own process and its last unexpected stop.
 */
export function EngineBar({ engine }: { engine: EngineControl }) {
  const { status, error, unload, keepAlive, threads } = engine;
  const loaded = status?.loaded ?? [];
  const total = loaded.reduce((n, m) => n + m.memoryBytes, 0);
  const keep = status?.keepAliveMinutes;
  const known = keepAliveOptions.some((o) => o.minutes === keep);
  return (
    <section className="card engine-bar" aria-labelledby="engine-bar-title" data-testid="engine-bar">
      <div className="card-head">
        <h2 id="engine-bar-title">Engine</h2>
        <span className="muted small" data-testid="engine-backend">
          {!status
            ? 'Asking the engine…'
            : status.started
              ? `llama.cpp · ${status.gpu ?? 'cpu'}`
              : 'llama.cpp · starts when you load a model'}
        </span>
        <span className="spacer" />
        <label className="inline-label">
          Unload when idle for
          <select
            value={keep ?? ''}
            disabled={keep === undefined || keepAlive.busy}
            onChange={(e) => void keepAlive.run(Number(e.target.value))}
          >
            {keep !== undefined && !known && <option value={keep}>{keep} min</option>}
            {keepAliveOptions.map((o) => (
              <option key={o.minutes} value={o.minutes}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        {loaded.length > 1 && (
          <button className="btn btn-sm" onClick={() => void unload.run()} disabled={unload.busy}>
            Unload all
          </button>
        )}
      </div>
      {status && (
        <div className="engine-facts muted small">
          <EngineThreads threads={status.threads} action={threads} />
          {status.host && (
            <span data-testid="engine-process" title={`Process id ${status.host.pid}`}>
              Engine process · {status.host.rssBytes === undefined ? 'running' : formatBytes(status.host.rssBytes)}
            </span>
          )}
        </div>
      )}
      {status?.lastStop && <LastStop stop={status.lastStop} />}
      <EngineError error={status?.error ?? error} />
      {loaded.length === 0 ? (
        <p className="muted small" data-testid="engine-idle">
          No model is loaded. Load one below; it stays in memory until it has been idle for the time chosen here.
        </p>
      ) : (
        <ul className="loaded-list">
          {loaded.map((m) => (
            <li key={m.id} className="loaded" data-testid="loaded-model" data-model={m.id}>
              <span className="loaded-name">{m.name}</span>
              {m.embedding && <span className="badge">Embeddings</span>}
              {m.reranker && <span className="badge">Reranker</span>}
              <span className="muted small">
                {formatTokens(m.contextSize)} tokens · {m.gpuLayers} GPU layers ·{' '}
                <span className={m.busy || m.waiting ? 'loaded-busy' : undefined} data-testid="loaded-activity">
                  {formatActivity(m)}
                </span>{' '}
                {m.threads ? `· ${plural(m.threads, 'CPU thread')} ` : ''}·{' '}
                <span
                  data-testid="loaded-memory"
                  title="What llama.cpp holds for it: the file's weights, the KV cache of every sequence and its compute buffers"
                >
                  {formatBytes(m.memoryBytes)} in memory (file + KV cache + buffers)
                </span>
                {m.unloadAt ? ` · unloads ${formatUntil(m.unloadAt)}` : ''}
              </span>
              <span className="spacer" />
              <button
                className="btn btn-sm"
                onClick={() => void unload.run(m.id)}
                disabled={unload.busy}
                aria-label={`Unload ${m.name}`}
              >
                Unload
              </button>
            </li>
          ))}
          {loaded.length > 1 && <li className="muted small">{formatBytes(total)} in memory in all</li>}
        </ul>
      )}
      <ErrorLine error={unload.error ?? keepAlive.error} />
    </section>
  );
}

/** The engine's process last ended on its own (a crash, out of memory), and why: a note in view, not an alarm. */
function LastStop({ stop }: { stop: NonNullable<EngineStatus['lastStop']> }) {
  return (
    <p className="small engine-stop" role="status" data-testid="engine-last-stop">
      Last unexpected stop,{' '}
      <time dateTime={stop.at} title={stop.at}>
        {formatAge(stop.at)}
      </time>
      : {stop.message}
    </p>
  );
}

function EngineError({ error }: { error?: AppErrorShape | EngineStatus['error'] }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      The engine: {error.message}
    </p>
  );
}
