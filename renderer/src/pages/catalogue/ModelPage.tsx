import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { GgufQuant, HubFreshness } from '@shared/contract/catalogue';
import type { AppError } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import { api } from '../../api';
import { ExternalLink } from '../../components/ExternalLink';
import { Empty, ErrorState, Loading } from '../../components/States';
import { SnippetWorkbench } from '../../features/snippets/SnippetWorkbench';
import { formatAge, formatBytes } from '../../lib/format';
import type { CatalogueView } from '../../store/catalogue';
import { hrefFor } from '../../store/route';
import { useSettings } from '../../store/settings';
import { CatLink, hubUrl } from './links';

type Live =
  | { state: 'loading' }
  | { state: 'ok'; model: ModelRecord; freshness: HubFreshness; quants: GgufQuant[] }
  | { state: 'off' }
  | { state: 'error'; error: AppError };

const fmtCount = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

function Stat({ label, testid, children }: { label: string; testid?: string; children: ReactNode }) {
  return (
    <div className="cat-stat">
      <span className="cat-stat-label">{label}</span>
      <span className="cat-stat-value" data-testid={testid}>
        {children}
      </span>
    </div>
  );
}

function Freshness({ f }: { f: HubFreshness }) {
  if (f.source === 'network' || f.source === 'revalidated')
    return <span className="badge badge-ok">live from the Hub</span>;
  return (
    <span className="badge badge-warn" data-testid="model-cached" title={f.reason}>
      cached · {formatAge(f.fetchedAt)}
    </span>
  );
}

function Quants({
  id,
  quants,
  picked,
  onPick,
}: {
  id: string;
  quants: GgufQuant[];
  picked?: string;
  onPick(q: string): void;
}) {
  return (
    <section className="card cat-section" data-testid="model-quants">
      <h2>
        GGUF quantizations <span className="badge">{quants.length}</span>
      </h2>
      <table className="table cat-table">
        <thead>
          <tr>
            <th className="cat-radio" aria-label="Pick" />
            <th>Quantization</th>
            <th>Files</th>
            <th className="num">Size</th>
          </tr>
        </thead>
        <tbody>
          {quants.map((q) => (
            <tr key={q.label} className={picked === q.label ? 'cat-picked' : undefined}>
              <td className="cat-radio">
                <input
                  type="radio"
                  name="gguf-quant"
                  aria-label={q.label}
                  checked={picked === q.label}
                  onChange={() => onPick(q.label)}
                />
              </td>
              <td className="mono">{q.label}</td>
              <td className="mono small muted">{q.files.length === 1 ? q.files[0] : `${q.files.length} files`}</td>
              <td className="num">{q.size !== undefined ? formatBytes(q.size) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {picked && (
        <p className="cat-actions">
          <a
            className="btn btn-primary"
            href={hrefFor('models', 'pull', `hf.co/${id}:${picked}`)}
            data-testid="run-ollama"
          >
            Run locally with Ollama
          </a>
          <span className="mono small muted">
            hf.co/{id}:{picked}
          </span>
        </p>
      )}
    </section>
  );
}

/** A model: embedded facts, live Hub details when allowed (or a copy cached earlier), and the snippet workbench. */
export function ModelPage({ id, view }: { id: string; view: CatalogueView }) {
  const embedded = view.models.get(id);
  const hubOn = useSettings((s) => s.view?.values.hubSearch ?? false);
  const update = useSettings((s) => s.update);
  const [live, setLive] = useState<Live>({ state: 'loading' });
  const [picked, setPicked] = useState<string>();

  const load = useCallback(async () => {
    setLive({ state: 'loading' });
    try {
      // With "Search the Hub" off, main answers only from its cache and sends nothing.
      const res = await api.call('hub.model', { id });
      setLive({ state: 'ok', ...res });
      setPicked((p) => p ?? res.quants.find((q) => q.label === 'Q4_K_M')?.label ?? res.quants[0]?.label);
    } catch (e) {
      const err = e as AppError;
      if ((err.details as { reason?: string } | undefined)?.reason === 'hub-off') setLive({ state: 'off' });
      else setLive({ state: 'error', error: err });
    }
  }, [id]);
  useEffect(() => void load(), [load, hubOn]);

  let record: ModelRecord | undefined;
  if (embedded) {
    const { tasks: _t, widget: _w, ...rest } = embedded;
    record = rest;
  }
  if (live.state === 'ok')
    record = { ...record, ...live.model, description: record?.description ?? live.model.description };

  const header = (
    <header className="cat-title">
      <h1 className="mono cat-h1-id" data-testid="model-id">
        {id}
      </h1>
      {live.state === 'ok' && <Freshness f={live.freshness} />}
      {embedded && <span className="badge">in the task data</span>}
      <span className="cat-spacer" />
      <ExternalLink href={hubUrl('model', id)}>Open on Hugging Face</ExternalLink>
    </header>
  );

  if (!record) {
    return (
      <div data-testid="model-view">
        {header}
        {live.state === 'loading' ? (
          <Loading label="Looking for this model…" />
        ) : live.state === 'error' ? (
          <ErrorState error={live.error} title="Could not load this model from the Hub" onRetry={() => void load()} />
        ) : (
          <Empty
            title="Not in the embedded catalogue"
            action={
              <button className="btn btn-primary" onClick={() => void update({ hubSearch: true })}>
                Turn on Search the Hub
              </button>
            }
          >
            This model is not mentioned by the task data and has not been seen on the Hub before. Turn on live Hub
            access to load its details.
          </Empty>
        )}
      </div>
    );
  }

  const task = record.pipeline_tag;
  const lib = record.library_name;
  const author = record.author ?? (id.includes('/') ? id.split('/')[0] : undefined);
  const providers = record.inferenceProviderMapping ?? [];
  const quants = live.state === 'ok' ? live.quants : [];

  return (
    <div data-testid="model-view">
      {header}
      <div className="card cat-stats">
        <Stat label="Author" testid="model-author">
          {author ?? '—'}
        </Stat>
        <Stat label="Task" testid="model-task">
          {task ? (
            <CatLink kind="task" id={task}>
              {view.tasks.get(task)?.label ?? task}
            </CatLink>
          ) : (
            '—'
          )}
        </Stat>
        <Stat label="Library" testid="model-library">
          {lib ? (
            view.libraries.has(lib) ? (
              <CatLink kind="library" id={lib}>
                {view.libraries.get(lib)!.prettyLabel}
              </CatLink>
            ) : (
              <span className="mono">{lib}</span>
            )
          ) : (
            <span className="muted">unknown</span>
          )}
        </Stat>
        {record.downloads !== undefined && <Stat label="Downloads">{fmtCount.format(record.downloads)}</Stat>}
        {record.likes !== undefined && <Stat label="Likes">{fmtCount.format(record.likes)}</Stat>}
        {record.lastModified && <Stat label="Updated">{formatAge(record.lastModified)}</Stat>}
      </div>
      {record.description && <p className="cat-summary">{record.description}</p>}
      {embedded && embedded.tasks.length > 1 && (
        <p className="muted small">
          Listed by:{' '}
          {embedded.tasks.map((t, i) => (
            <span key={t}>
              {i > 0 && ', '}
              <CatLink kind="task" id={t}>
                {view.tasks.get(t)?.label ?? t}
              </CatLink>
            </span>
          ))}
        </p>
      )}
      {live.state === 'loading' && <Loading label="Checking the Hub cache…" />}
      {live.state === 'off' && (
        <div className="cat-redirect" role="note">
          Downloads, files, providers and quantizations come from the Hub.{' '}
          <button className="btn btn-ghost" onClick={() => void update({ hubSearch: true })}>
            Turn on Search the Hub
          </button>
        </div>
      )}
      {live.state === 'error' && (
        <div className="card cat-inline-error" role="alert" data-testid="model-error">
          <strong>Live details unavailable.</strong> {live.error.message}{' '}
          <button className="btn btn-ghost" onClick={() => void load()}>
            Try again
          </button>
        </div>
      )}
      {record.tags.length > 0 && (
        <ul className="cat-chips cat-tags" data-testid="model-tags">
          {record.tags.map((t) => (
            <li key={t} className="badge">
              {t}
            </li>
          ))}
        </ul>
      )}
      {providers.length > 0 && (
        <section className="card cat-section" data-testid="model-providers">
          <h2>Inference providers</h2>
          <table className="table cat-table">
            <thead>
              <tr>
                <th>Provider</th>
                <th>Provider model id</th>
                <th>Task</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {providers.map((p) => (
                <tr key={p.provider}>
                  <td>{p.provider}</td>
                  <td className="mono small">{p.providerId}</td>
                  <td>{p.task}</td>
                  <td>
                    <span className={`badge ${p.status === 'live' ? 'badge-ok' : 'badge-warn'}`}>{p.status}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {quants.length > 0 && <Quants id={id} quants={quants} picked={picked} onPick={setPicked} />}
      <section className="cat-use" data-testid="use-this-model">
        <h2>Use this model</h2>
        <SnippetWorkbench model={record} quant={picked} />
      </section>
    </div>
  );
}
