import type { DocumentInfo, KnowledgeBase } from '@shared/contract/documents';
import { useDocActions } from '../../../hooks/documents';
import { useDocuments, type Upload } from '../../../store/documents';
import { fraction, indexing, progressLine } from './progress';

function Bar({ value }: { value?: number }) {
  return (
    <span className={`doc-bar${value === undefined ? ' doc-bar-idle' : ''}`} aria-hidden="true">
      <span style={{ width: `${Math.round((value ?? 0) * 100)}%` }} />
    </span>
  );
}

/** One document: name, state and progress, the error in words, "Send whole" and Remove. */
function DocRow({ d, onRemove, stopped }: { d: DocumentInfo; onRemove?: () => void; stopped?: boolean }) {
  const { pin } = useDocActions();
  return (
    <li className={`doc-row doc-${d.state}`} data-testid="doc-row" data-state={d.state}>
      <div className="doc-row-head">
        <span className="doc-row-name" title={d.path}>
          {d.path}
        </span>
        <button
          className="btn btn-ghost btn-xs"
          aria-pressed={d.pinned}
          title="Send this document whole to the model whenever it fits, instead of the passages a search finds"
          disabled={pin.busy || d.state === 'error'}
          onClick={() => void pin.run(d.id, !d.pinned)}
        >
          {d.pinned ? '★ Sent whole' : 'Send whole'}
        </button>
        {onRemove && (
          <button className="btn btn-ghost btn-xs" onClick={onRemove} aria-label={`Remove ${d.name}`}>
            Remove
          </button>
        )}
      </div>
      <div className="doc-row-state small muted">
        <Bar value={fraction(d)} />
        <span>{progressLine(d, stopped)}</span>
      </div>
      {d.error && (
        <p className="doc-error small" role="alert">
          {d.error.message}
        </p>
      )}
      {pin.error && (
        <p className="doc-error small" role="alert">
          {pin.error.message}
        </p>
      )}
    </li>
  );
}

function UploadRow({ u }: { u: Upload }) {
  const dismiss = useDocuments((s) => s.dismissUpload);
  return (
    <li className={`doc-row doc-${u.state === 'error' ? 'error' : 'queued'}`} data-testid="upload-row">
      <div className="doc-row-head">
        <span className="doc-row-name">{u.name}</span>
        {u.state === 'error' && (
          <button className="btn btn-ghost btn-xs" onClick={() => dismiss(u.key)} aria-label={`Dismiss ${u.name}`}>
            Dismiss
          </button>
        )}
      </div>
      <div className="doc-row-state small muted">
        <Bar value={u.sizeBytes ? u.sentBytes / u.sizeBytes : undefined} />
        <span>{u.state === 'error' ? 'Not attached' : u.state === 'queued' ? 'Waiting to send' : 'Sending…'}</span>
      </div>
      {u.error && (
        <p className="doc-error small" role="alert">
          {u.error.message}
        </p>
      )}
    </li>
  );
}

/**
 * A base's documents, grouped by what was attached (a folder shows its files under it), with Stop/Resume for its
 * indexing and a re-embed's progress. Uploads still on their way are listed first.
 */
export function DocumentsPanel({ base, uploads = [] }: { base?: KnowledgeBase; uploads?: Upload[] }) {
  const { removeSource, cancel, resume } = useDocActions();
  const docs = base?.documents ?? [];
  const busy = docs.some(indexing);
  // Stopped (main's word, from the base the action put in the store): what is embedded stays, Resume goes on.
  const stopped = !!base?.paused;
  if (!docs.length && !uploads.length)
    return <p className="muted small doc-empty">No documents yet: attach files or a folder, or drop files here.</p>;
  const sources = base?.sources ?? [];
  return (
    <div className="doc-panel" data-testid="documents-panel">
      {base?.reembedding && (
        <p className="small muted" role="status">
          Re-embedding with {base.reembedding.embedder.model}: {base.reembedding.done}/{base.reembedding.total} chunks
          (the current index answers until it is complete)
        </p>
      )}
      {base && (busy || stopped) && (
        <div className="doc-panel-actions">
          {!stopped ? (
            <button className="btn btn-xs" disabled={cancel.busy} onClick={() => void cancel.run(base.id)}>
              Stop indexing
            </button>
          ) : (
            <button className="btn btn-xs" disabled={resume.busy} onClick={() => void resume.run(base.id)}>
              Resume indexing
            </button>
          )}
        </div>
      )}
      <ul className="doc-list" aria-label="Documents">
        {uploads.map((u) => (
          <UploadRow key={u.key} u={u} />
        ))}
        {sources.map((s) => {
          const mine = docs.filter((d) => d.source === s.id);
          if (s.kind !== 'folder')
            return mine.map((d) => (
              <DocRow key={d.id} d={d} stopped={!!base?.error} onRemove={() => void removeSource.run(s.id)} />
            ));
          return (
            <li key={s.id} className="doc-folder">
              <div className="doc-row-head">
                <span className="doc-row-name" title={s.path}>
                  📁 {s.path}
                  {!s.exists && <span className="doc-warn"> (folder not found)</span>}
                </span>
                <button className="btn btn-ghost btn-xs" onClick={() => void removeSource.run(s.id)}>
                  Remove folder
                </button>
              </div>
              <ul className="doc-list">
                {mine.map((d) => (
                  <DocRow key={d.id} d={d} stopped={!!base?.error} />
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
      {[removeSource.error, cancel.error, resume.error].filter(Boolean).map((e, i) => (
        <p key={i} className="doc-error small" role="alert">
          {e!.message}
        </p>
      ))}
    </div>
  );
}
