import { useState } from 'react';
import type { RequestLogEntry } from '@shared/contract/local-server';
import { useClearRequestLog, useRequestBodies, useRequestLog } from '../../../hooks/local';
import { formatElapsed } from '../../../lib/format';
import { ErrorLine } from '../Modal';

/** The file name a local model id ends with, without `.gguf`: what fits a row (the whole id is in its details). */
const shortModel = (id: string) => (id.split(/[\\/]/).at(-1) ?? id).replace(/\.gguf$/i, '');

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

const failed = (e: RequestLogEntry) => (e.status !== undefined && e.status >= 400) || !!e.error;

/**
 * The local server's last requests, newest first and live: when, which client, the route, the model, its tokens and
 * speed, the status, and what went wrong in words. Nothing asked or answered is kept unless "Keep request bodies"
 * is on; then a row's details show its body (without the key) and the reply.
 */
export function RequestLog({
  keepBodies,
  onKeepBodies,
  busy,
}: {
  keepBodies: boolean;
  onKeepBodies: (keep: boolean) => void;
  /** A change to the server's settings is on its way. */
  busy: boolean;
}) {
  const { entries, error } = useRequestLog();
  const clear = useClearRequestLog();
  return (
    <section className="request-log" aria-labelledby="request-log-title" data-testid="request-log">
      <div className="request-log-head">
        <h3 id="request-log-title">Requests</h3>
        <span className="spacer" />
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => void clear.run()}
          disabled={clear.busy || !entries?.length}
        >
          Clear
        </button>
      </div>
      <div className="switch-row">
        <button
          type="button"
          role="switch"
          id="keep-bodies"
          className={`switch${keepBodies ? ' on' : ''}`}
          aria-checked={keepBodies}
          aria-labelledby="keep-bodies-label"
          aria-describedby="keep-bodies-help"
          onClick={() => onKeepBodies(!keepBodies)}
          disabled={busy}
          data-testid="keep-bodies"
        >
          <span className="switch-knob" aria-hidden="true" />
        </button>
        <label id="keep-bodies-label" htmlFor="keep-bodies">
          Keep request bodies
        </label>
      </div>
      <p id="keep-bodies-help" className="help">
        {keepBodies
          ? 'Each request’s body (up to 64 KB, with the key removed) and the reply’s text are kept in memory, to read in a row’s details, until you clear the log or quit.'
          : 'Off: the log keeps the route, model, token counts and status, never what was asked or answered.'}
      </p>
      {error && (
        <p className="field-error" role="alert">
          Lost the request log ({error.message}); listening again…
        </p>
      )}
      {!entries ? (
        !error && <p className="muted small">Asking…</p>
      ) : entries.length === 0 ? (
        <p className="muted small" data-testid="request-log-empty">
          No requests yet — each call an app makes to the server shows here as it arrives.
        </p>
      ) : (
        <ol className="request-list" aria-label="Requests, newest first">
          {entries.map((e) => (
            <RequestRow key={e.id} e={e} />
          ))}
        </ol>
      )}
      <ErrorLine error={clear.error} />
    </section>
  );
}

function RequestRow({ e }: { e: RequestLogEntry }) {
  const [open, setOpen] = useState(false);
  const tokens =
    e.promptTokens !== undefined && e.completionTokens !== undefined
      ? `${e.promptTokens} → ${e.completionTokens} tokens`
      : undefined;
  const meta = [
    e.client,
    e.model && shortModel(e.model),
    tokens,
    e.tokensPerSecond !== undefined ? `${e.tokensPerSecond} tok/s` : undefined,
  ].filter(Boolean);
  return (
    <li className={`request-row${failed(e) ? ' failed' : ''}`} data-testid="request-row" data-status={e.status}>
      <details onToggle={(ev) => setOpen(ev.currentTarget.open)}>
        <summary>
          <span className="request-line">
            <time dateTime={e.at}>{clock(e.at)}</time>
            <span className="request-route">
              {e.method} {e.path}
            </span>
            <span className="request-status" data-testid="request-status">
              {e.status ?? 'answering…'}
            </span>
          </span>
          <span className="request-meta">{meta.join(' · ')}</span>
          {e.error && (
            <span className="request-error" data-testid="request-error">
              {e.error}
            </span>
          )}
        </summary>
        <dl className="request-facts">
          <dt>Client</dt>
          <dd>{e.userAgent ?? 'No User-Agent sent'}</dd>
          {e.origin && (
            <>
              <dt>Web page</dt>
              <dd>{e.origin}</dd>
            </>
          )}
          {e.model && (
            <>
              <dt>Model</dt>
              <dd>{e.model}</dd>
            </>
          )}
          {e.durationMs !== undefined && (
            <>
              <dt>Took</dt>
              <dd>{formatElapsed(e.durationMs)}</dd>
            </>
          )}
        </dl>
        {e.kept ? (
          open && <KeptBodies id={e.id} />
        ) : (
          <p className="help">Its body and reply were not kept (“Keep request bodies” was off).</p>
        )}
      </details>
    </li>
  );
}

/** A kept body, indented when it is whole JSON (a cut one is shown as it came). */
function pretty(text: string, truncated?: boolean): string {
  if (truncated) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function KeptBodies({ id }: { id: string }) {
  const q = useRequestBodies(id);
  if (q.state === 'loading') return <p className="muted small">Loading…</p>;
  if (q.state === 'error') return <ErrorLine error={q.error} />;
  const { request, requestTruncated, reply, replyTruncated } = q.data;
  if (request === undefined && reply === undefined)
    return <p className="help">Nothing was kept for it (no body, or the log was cleared).</p>;
  return (
    <>
      {request !== undefined && (
        <>
          <p className="field-label">Request body{requestTruncated ? ' (the first 64 KB)' : ''}</p>
          <pre className="request-body" tabIndex={0} aria-label="Request body">
            {pretty(request, requestTruncated)}
          </pre>
        </>
      )}
      {reply !== undefined && (
        <>
          <p className="field-label">Reply{replyTruncated ? ' (the first 64 KB)' : ''}</p>
          <pre className="request-body" tabIndex={0} aria-label="Reply">
            {reply}
          </pre>
        </>
      )}
    </>
  );
}
