import { useRef } from 'react';
import type { LocalModel, ModelShow } from '@shared/contract/ollama';
import { useModelShow } from '../../hooks/models';
import { canChat } from '../../lib/can-chat';
import { Icon } from '../../components/Icon';
import { useDialog } from '../../components/useDialog';
import { ErrorState, Loading } from '../../components/States';
import { formatAge, formatBytes } from '../../lib/format';
import { newChatHref } from '../../store/route';

/** The model_info keys worth a line: architecture, size, context, embedding, attention, quantization. */
const mainInfo = (info: ModelShow['model_info']): [string, string | number | boolean][] => {
  const arch = String(info['general.architecture'] ?? '');
  const wanted = [
    'general.architecture',
    'general.basename',
    'general.size_label',
    'general.parameter_count',
    'general.file_type',
    'general.quantization_version',
    `${arch}.context_length`,
    `${arch}.embedding_length`,
    `${arch}.block_count`,
    `${arch}.attention.head_count`,
    `${arch}.attention.head_count_kv`,
    `${arch}.feed_forward_length`,
    `${arch}.rope.freq_base`,
    'tokenizer.ggml.model',
  ];
  const out: [string, string | number | boolean][] = [];
  for (const k of wanted) if (k in info) out.push([k, info[k]]);
  return out;
};

const fmtValue = (v: string | number | boolean) =>
  typeof v === 'number' ? (Number.isInteger(v) ? v.toLocaleString('en-US') : String(v)) : String(v);

function Block({ title, text, open }: { title: string; text?: string; open?: boolean }) {
  if (!text) return null;
  return (
    <details className="drawer-block" open={open}>
      <summary>{title}</summary>
      <pre className="mono">{text}</pre>
    </details>
  );
}

export function DetailsDrawer({
  model,
  onClose,
  onCopy,
  onCreate,
  onPush,
  onDelete,
}: {
  model: LocalModel;
  onClose: () => void;
  onCopy: () => void;
  onCreate: () => void;
  onPush: () => void;
  onDelete: () => void;
}) {
  const query = useModelShow(model.name);
  const show = query.state === 'ok' ? query.data : undefined;
  const error = query.state === 'error' ? query.error : undefined;

  const ref = useRef<HTMLElement>(null);
  useDialog(ref, onClose);

  const arch = show ? String(show.model_info['general.architecture'] ?? '') : '';
  const ctx = show?.model_info[`${arch}.context_length`];

  return (
    <div className="drawer-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside
        ref={ref}
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-label={`Details of ${model.name}`}
        data-testid="details"
      >
        <header className="drawer-head">
          <h2 className="mono">{model.name}</h2>
          <button className="btn btn-ghost btn-icon" onClick={onClose} aria-label="Close details">
            <Icon name="close" />
          </button>
        </header>
        <div className="drawer-actions">
          {/* Embedding-only models (no `completion` capability) cannot chat. */}
          {canChat(show?.capabilities) !== false && (
            <a className="btn btn-sm btn-primary" href={newChatHref('ollama', model.name)}>
              Chat with this model
            </a>
          )}
          <button className="btn btn-sm" onClick={onCopy}>
            Copy / rename
          </button>
          <button className="btn btn-sm" onClick={onCreate}>
            Create from…
          </button>
          <button
            className="btn btn-sm"
            onClick={onPush}
            title="Publish to the registry the name points to (asks first)"
          >
            Push…
          </button>
          <span className="spacer" />
          <button className="btn btn-sm btn-danger" onClick={onDelete}>
            Delete
          </button>
        </div>
        <div className="drawer-body">
          {error ? (
            <ErrorState error={error} title="Could not read the model" onRetry={query.reload} />
          ) : !show ? (
            <Loading label="Reading the model…" />
          ) : (
            <>
              {show.capabilities.length > 0 && (
                <div className="caps" aria-label="Capabilities">
                  {show.capabilities.map((c) => (
                    <span key={c} className="badge badge-cap">
                      {c}
                    </span>
                  ))}
                </div>
              )}
              <dl className="facts">
                <dt>Family</dt>
                <dd>{show.details.family ?? '—'}</dd>
                <dt>Parameters</dt>
                <dd>{show.details.parameter_size ?? '—'}</dd>
                <dt>Quantization</dt>
                <dd>{show.details.quantization_level ?? '—'}</dd>
                <dt>Format</dt>
                <dd>{show.details.format ?? '—'}</dd>
                <dt>Context</dt>
                <dd>{typeof ctx === 'number' ? `${ctx.toLocaleString('en-US')} tokens` : '—'}</dd>
                <dt>Size</dt>
                <dd>{formatBytes(model.size)}</dd>
                <dt>Modified</dt>
                <dd>{formatAge(model.modified_at)}</dd>
                <dt>Digest</dt>
                <dd className="mono small" title={model.digest}>
                  {model.digest.slice(0, 12)}
                </dd>
              </dl>
              {show.system && (
                <section className="drawer-section">
                  <h3>System prompt</h3>
                  <pre className="mono">{show.system}</pre>
                </section>
              )}
              {show.parameters && (
                <section className="drawer-section">
                  <h3>Parameters</h3>
                  <pre className="mono">{show.parameters}</pre>
                </section>
              )}
              <section className="drawer-section">
                <h3>Model info</h3>
                <table className="table table-compact">
                  <tbody>
                    {mainInfo(show.model_info).map(([k, v]) => (
                      <tr key={k}>
                        <td className="mono small">{k}</td>
                        <td className="num">{fmtValue(v)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
              <Block title="Template" text={show.template} />
              <Block title="License" text={show.license} />
              <Block title="Modelfile" text={show.modelfile} />
            </>
          )}
        </div>
      </aside>
    </div>
  );
}
