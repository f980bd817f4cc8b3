import { useState, type ReactNode } from 'react';
import type { GgufQuant } from '@shared/contract/hub-repo';
import type { ModelRecord } from '@shared/model-record';
import { ExternalLink } from '../../components/ExternalLink';
import { Empty, ErrorState, Loading } from '../../components/States';
import { SnippetWorkbench } from '../../features/snippets/SnippetWorkbench';
import { formatAge } from '../../lib/format';
import type { CatalogueView } from '../../store/catalogue';
import { useSettings } from '../../store/settings';
import { Freshness } from './Freshness';
import { Lineage } from './Lineage';
import { CatLink, hubUrl } from './links';
import { ModelFacts } from './ModelFacts';
import { Providers } from './Providers';
import { Quants } from './Quants';
import { RepoTabs } from './RepoTabs';
import { useHubModel } from '../../hooks/hub';
import { useFit } from '../../hooks/fit';

const noQuants: GgufQuant[] = [];
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

/** A model: embedded facts, live Hub details when allowed (or a copy cached earlier), and the snippet workbench. */
export function ModelPage({ id, view }: { id: string; view: CatalogueView }) {
  const embedded = view.models.get(id);
  const update = useSettings((s) => s.update);
  // Details at hand (a prefetch that arrived while the address changed, or seen earlier in this window) are shown in
  // the first render; stale ones are asked again behind them. With "Search the Hub" off, main answers only from its
  // cache and sends nothing. The card is asked for at the same time as the details, not after them.
  const { live, reload } = useHubModel(id);
  const [userPick, setPicked] = useState<string>();

  let record: ModelRecord | undefined;
  if (embedded) {
    const { tasks: _t, widget: _w, ...rest } = embedded;
    record = rest;
  }
  if (live.state === 'ok')
    record = { ...record, ...live.model, description: record?.description ?? live.model.description };
  // The default quant is the largest that fits this machine fully (else Q4_K_M), until the user picks one.
  const fit = useFit(id, record, live.state === 'ok' ? live.quants : noQuants);
  const picked = userPick ?? fit.defaultLabel;

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
          <ErrorState error={live.error} title="Could not load this model from the Hub" onRetry={reload} />
        ) : (
          <Empty
            title="Not in the embedded catalogue"
            action={
              <button className="btn btn-primary" onClick={() => void update({ hubAccess: 'online' })}>
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
          <button className="btn btn-ghost" onClick={() => void update({ hubAccess: 'online' })}>
            Turn on Search the Hub
          </button>
        </div>
      )}
      {live.state === 'error' && (
        <div className="card cat-inline-error" role="alert" data-testid="model-error">
          <strong>Live details unavailable.</strong> {live.error.message}{' '}
          <button className="btn btn-ghost" onClick={reload}>
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
      {live.state === 'ok' && <ModelFacts model={live.model} />}
      {live.state === 'ok' && <Lineage model={live.model} />}
      {providers.length > 0 && <Providers providers={providers} />}
      {fit.rows.length > 0 && <Quants id={id} plan={fit} picked={picked} onPick={setPicked} />}
      {/* Mounted while the details load too, so the card is asked for in parallel with them. */}
      {(live.state === 'ok' || live.state === 'loading') && (
        <RepoTabs kind="model" id={id} cardData={live.state === 'ok' ? live.model.cardData : undefined} />
      )}
      <section className="cat-use" id="use-this-model" data-testid="use-this-model">
        <h2>Use this model</h2>
        <SnippetWorkbench model={record} quant={picked} />
      </section>
    </div>
  );
}
