import { useEffect, useId, useRef } from 'react';
import { formatBytes } from '../../../lib/format';
import { useEmbedders } from '../../../hooks/documents';
import { isActive, jobTotals, usePulls } from '../../../store/pulls';

/** The embedding model offered when there is none: small, and what most guides name. */
const OFFERED_EMBEDDER = { model: 'nomic-embed-text', sizeBytes: 274_000_000 };

/**
 * "Embedding model": the one documents are indexed with, picked from Ollama's embedding models and the built-in
 * engine's embedding GGUFs. With none there, an offer to pull nomic-embed-text (the usual pull, shown here and in
 * the status bar), set as the model once pulled. A new model re-embeds in the background; the old index serves.
 */
export function EmbedderPicker({ compact, focus }: { compact?: boolean; focus?: number }) {
  const id = useId();
  // Asked for from the strip (its model chip, "Choose a model…"): the picker takes the focus, once per request,
  // now or when the select appears (the models are still being looked for when the panel opens).
  const select = useRef<HTMLSelectElement | null>(null);
  const focused = useRef(0);
  const takeFocus = () => {
    if (!focus || focused.current === focus || !select.current) return;
    focused.current = focus;
    select.current.focus();
  };
  useEffect(takeFocus);
  const { embedder, choices, set, reload, currentError } = useEmbedders();
  const job = usePulls((s) => s.jobs.findLast((j) => j.model === OFFERED_EMBEDDER.model));
  const pull = usePulls((s) => s.pull);
  const pulled = job?.state === 'success';
  // Once the offered model is pulled, it becomes the embedding model.
  useEffect(() => {
    if (pulled) {
      reload();
      if (!embedder) void set.run({ backend: 'ollama', model: OFFERED_EMBEDDER.model });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pulled]);
  const list = choices.last ?? [];
  const key = embedder ? `${embedder.backend}:${embedder.model}` : '';
  const listed = list.some((c) => `${c.backend}:${c.model}` === key);
  const totals = job && isActive(job) ? jobTotals(job) : undefined;
  return (
    <div className={`doc-embedder${compact ? ' doc-embedder-compact' : ''}`} data-testid="embedder-picker">
      <label htmlFor={id}>Embedding model</label>
      {choices.state === 'loading' && !choices.last ? (
        <span className="muted small">Looking for embedding models…</span>
      ) : list.length > 0 || embedder ? (
        <select
          ref={select}
          id={id}
          value={key}
          disabled={set.busy}
          onChange={(e) => {
            const c = list.find((x) => `${x.backend}:${x.model}` === e.target.value);
            if (c) void set.run({ backend: c.backend, model: c.model });
          }}
        >
          {!embedder && <option value="">Choose one…</option>}
          {embedder && !listed && <option value={key}>{embedder.model} (not found)</option>}
          {list.map((c) => (
            <option key={`${c.backend}:${c.model}`} value={`${c.backend}:${c.model}`}>
              {c.label}
            </option>
          ))}
        </select>
      ) : (
        <span className="small" id={id}>
          No embedding model here yet.{' '}
          {totals ? (
            <span role="status">
              Pulling {OFFERED_EMBEDDER.model}…{' '}
              {totals.total ? `${Math.round((totals.completed / totals.total) * 100)}%` : ''}
            </span>
          ) : (
            <button className="btn btn-xs btn-primary" onClick={() => pull(OFFERED_EMBEDDER.model)}>
              Pull {OFFERED_EMBEDDER.model} ({formatBytes(OFFERED_EMBEDDER.sizeBytes)})?
            </button>
          )}
        </span>
      )}
      {!compact && (
        <p className="muted small doc-embedder-help">
          Documents are searched by meaning with this model, on this computer. A new one re-indexes them in the
          background; the current index answers until it is done.
        </p>
      )}
      {job?.state === 'error' && (
        <p className="doc-error small" role="alert">
          {job.error?.message}
        </p>
      )}
      {[set.error, choices.state === 'error' ? choices.error : undefined, currentError]
        .filter(Boolean)
        .slice(0, 1)
        .map((e) => (
          <p key="e" className="doc-error small" role="alert">
            {e!.message}
          </p>
        ))}
    </div>
  );
}
