import { useEffect, useState } from 'react';
import type { EmbedResult, LocalModel } from '@shared/contract/ollama';
import { useEmbed, useRunningModels } from '../../hooks/models';
import { formatBytes } from '../../lib/format';
import { plural } from '@shared/plural';

/** When Ollama unloads a model, from /api/ps's `expires_at`: "unloads in 4 min", "unloads in 1 h", "kept loaded". */
function unloadText(expiresAt: string, now = Date.now()): string {
  const t = Date.parse(expiresAt);
  if (Number.isNaN(t)) return '—';
  const s = (t - now) / 1000;
  // keep_alive -1 (keep loaded) is reported as a date centuries away.
  if (s > 86400 * 365) return 'kept loaded';
  if (s < 60) return s <= 0 ? 'unloading now' : 'unloads in under a minute';
  if (s < 3600) return `unloads in ${Math.round(s / 60)} min`;
  if (s < 86400) return `unloads in ${Math.round(s / 3600)} h`;
  const days = Math.round(s / 86400);
  return `unloads in ${plural(days, 'day')}`;
}

/** Models loaded in memory right now (ollama ps). */
export function RunningModels({ tick = 0 }: { tick?: number }) {
  const { models, error } = useRunningModels(tick);

  return (
    <section className="card" aria-label="Running models" data-testid="running">
      <div className="card-head">
        <h2>Running</h2>
        <span className="muted small">Loaded in memory now · refreshed every 10 s</span>
      </div>
      {error ? (
        <p className="field-error">{error.message}</p>
      ) : !models ? (
        <p className="muted small">Asking Ollama…</p>
      ) : models.length === 0 ? (
        <p className="muted small">
          No model is loaded. Ollama loads one when you chat with it or embed text, and unloads it after a while idle.
        </p>
      ) : (
        <table className="table table-compact">
          <thead>
            <tr>
              <th>Name</th>
              <th className="num">Memory</th>
              <th>Processor</th>
              <th className="num">Context</th>
              <th>Stays loaded</th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => {
              const gpu = m.size > 0 ? Math.round((m.size_vram / m.size) * 100) : 0;
              return (
                <tr key={m.name}>
                  <td className="mono">{m.name}</td>
                  <td className="num">{formatBytes(m.size)}</td>
                  <td>{gpu >= 100 ? '100% GPU' : gpu <= 0 ? '100% CPU' : `${100 - gpu}% CPU / ${gpu}% GPU`}</td>
                  <td className="num">{m.context_length ? m.context_length.toLocaleString('en-US') : '—'}</td>
                  <td title={m.expires_at}>{unloadText(m.expires_at)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Text in → vector out: dimensions and the first values, to check an embedding model works. */
export function EmbedPlayground({ models, onEmbedded }: { models: LocalModel[]; onEmbedded?: () => void }) {
  const guess = models.find((m) => /embed|bge|minilm|e5/i.test(m.name)) ?? models[0];
  const [model, setModel] = useState(guess?.name ?? '');
  const [text, setText] = useState('');
  const [result, setResult] = useState<EmbedResult>();
  const { run: embed, busy, error } = useEmbed();
  useEffect(() => {
    if (!models.some((m) => m.name === model)) setModel(guess?.name ?? '');
  }, [models, model, guess]);

  const run = async () => {
    if (!model || !text.trim()) return;
    const r = await embed({ model, input: text });
    setResult(r);
    if (r) onEmbedded?.();
  };
  const vec = result?.embeddings[0];
  return (
    <section className="card" aria-label="Embeddings" data-testid="embed">
      <div className="card-head">
        <h2>Embeddings</h2>
        <span className="muted small">Turn text into a vector with a local model</span>
      </div>
      <form
        className="embed-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <select aria-label="Embedding model" value={model} onChange={(e) => setModel(e.target.value)}>
          {models.map((m) => (
            <option key={m.name} value={m.name}>
              {m.name}
            </option>
          ))}
        </select>
        <textarea
          aria-label="Text to embed"
          rows={2}
          value={text}
          placeholder="The quick brown fox jumps over the lazy dog."
          onChange={(e) => setText(e.target.value)}
        />
        <button className="btn btn-primary" type="submit" disabled={busy || !model || !text.trim()}>
          {busy ? 'Embedding…' : 'Embed'}
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error.message}
          {error.status ? ` (HTTP ${error.status})` : ''}
        </p>
      )}
      {vec && (
        <div className="embed-result" data-testid="embed-result">
          <p>
            <strong>{vec.length.toLocaleString('en-US')} dimensions</strong>
            <span className="muted">
              {result.prompt_eval_count ? ` · ${plural(result.prompt_eval_count, 'token')}` : ''}
              {result.total_duration ? ` · ${Math.round(result.total_duration / 1e6)} ms` : ''}
            </span>
          </p>
          <code className="mono small">
            [
            {vec
              .slice(0, 8)
              .map((x) => x.toFixed(4))
              .join(', ')}
            {vec.length > 8 ? ', …' : ''}]
          </code>
        </div>
      )}
    </section>
  );
}
