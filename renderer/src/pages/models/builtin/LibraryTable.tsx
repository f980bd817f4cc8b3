import { useId } from 'react';
import type { LocalFolder, LocalModel } from '@shared/contract/local-models';
import type { LoadedModel } from '@shared/contract/local-engine';
import { plural } from '@shared/plural';
import { isTextModel } from '@shared/chat-model';
import { memoryTotal, verdictLabels } from '@shared/fit';
import { formatBytes } from '../../../lib/format';
import { catalogueHref, newChatHref } from '../../../store/route';
import { sourceLabels } from './format';
import '../../catalogue/fit.css';

/** What a person can search for in a row. */
export function matches(m: LocalModel, filter: string): boolean {
  const q = filter.trim().toLowerCase();
  return (
    !q ||
    [m.name, m.title, m.repo, m.quant, m.architecture, sourceLabels[m.source], m.path].some((v) =>
      v?.toLowerCase().includes(q),
    )
  );
}

/** The fit verdict with its explanation on hover and on focus (the look of the Hub page's quant table). */
function Verdict({ plan }: { plan: NonNullable<LocalModel['plan']> }) {
  const tip = useId();
  if (!plan.verdict) return <span className="muted small">—</span>;
  return (
    <>
      <span
        className={`fit-badge fit-${plan.verdict}`}
        tabIndex={0}
        aria-describedby={plan.explanation ? tip : undefined}
        data-testid="fit-badge"
        data-verdict={plan.verdict}
      >
        {verdictLabels[plan.verdict]}
        {plan.explanation && (
          <span role="tooltip" id={tip} className="fit-tip tip-popover">
            {plan.explanation}
          </span>
        )}
      </span>
      {/* The figure under the badge, not in it: a wide badge pushed the row's buttons out of the column. */}
      {plan.memory && (
        <div className="muted small lib-fit-memory" data-testid="fit-memory">
          {formatBytes(memoryTotal(plan.memory))} in memory
        </div>
      )}
    </>
  );
}

/** The GGUFs on disk, one row each: where they came from, whether they fit, and Load / Unload / Chat / Delete. */
export function LibraryTable({
  models,
  loaded,
  busy,
  onLoad,
  onUnload,
  onDelete,
}: {
  models: LocalModel[];
  loaded: LoadedModel[];
  busy: boolean;
  onLoad: (m: LocalModel) => void;
  onUnload: (m: LocalModel) => void;
  onDelete: (m: LocalModel) => void;
}) {
  const isLoaded = new Set(loaded.map((l) => l.id));
  return (
    // Scrolls inside its column when it cannot fit, never under the panel beside it.
    <div className="library-scroll">
      <table className="table library-table" data-testid="library-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Hub repo</th>
            <th>Quant</th>
            <th className="num">Size</th>
            <th>Found in</th>
            <th>Fit</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr
              key={m.id}
              data-model={m.id}
              data-testid="library-row"
              className={m.problem ? 'row-problem' : undefined}
            >
              <td>
                <div className="lib-name">
                  <span className="mono" title={m.path}>
                    {m.name}
                  </span>
                  {m.verified && (
                    <span className="verified" title="sha256 matches the Hub's" aria-label="verified">
                      ✓
                    </span>
                  )}
                  {m.embedding && <span className="badge">Embeddings</span>}
                  {m.reranker && <span className="badge">Reranker</span>}
                  {isLoaded.has(m.id) && <span className="badge badge-ok">Loaded</span>}
                </div>
                {m.problem ? (
                  <p className="field-error" data-testid="model-problem">
                    {m.problem}
                  </p>
                ) : (
                  (m.title || m.parts > 1) && (
                    <p className="muted small lib-sub">
                      {[m.title, m.parts > 1 ? `${m.parts} parts` : ''].filter(Boolean).join(' · ')}
                    </p>
                  )
                )}
              </td>
              <td className="lib-repo">
                {m.repo ? <a href={catalogueHref('model', m.repo)}>{m.repo}</a> : <span className="muted">—</span>}
              </td>
              <td>{m.quant ?? '—'}</td>
              <td className="num">{formatBytes(m.sizeBytes)}</td>
              <td>
                <span className={`badge src-${m.source}`} title={m.folder} data-testid="source">
                  {sourceLabels[m.source]}
                </span>
              </td>
              <td>{m.plan && !m.problem ? <Verdict plan={m.plan} /> : <span className="muted small">—</span>}</td>
              <td className="row-actions">
                <div className="row-buttons">
                  {m.problem ? null : isLoaded.has(m.id) ? (
                    <button
                      className="btn btn-sm"
                      onClick={() => onUnload(m)}
                      disabled={busy}
                      aria-label={`Unload ${m.name}`}
                    >
                      Unload
                    </button>
                  ) : (
                    <button
                      className="btn btn-sm btn-primary"
                      onClick={() => onLoad(m)}
                      disabled={busy}
                      aria-label={`Load ${m.name}`}
                    >
                      Load
                    </button>
                  )}
                  {!m.problem && isTextModel(m) && (
                    <a
                      className="btn btn-sm btn-ghost"
                      href={newChatHref('local', m.id)}
                      aria-label={`Chat with ${m.name}`}
                    >
                      Chat
                    </a>
                  )}
                  {m.deletable && (
                    <button
                      className="btn btn-sm btn-ghost btn-danger"
                      onClick={() => onDelete(m)}
                      aria-label={`Delete ${m.name}`}
                    >
                      Delete
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The problem files a scan counted without listing (past the first few hundred of a folder), in one line. */
export function HiddenProblems({ folders }: { folders: LocalFolder[] }) {
  const hidden = folders.filter((f) => f.problemsHidden);
  if (!hidden.length) return null;
  const total = hidden.reduce((n, f) => n + (f.problemsHidden ?? 0), 0);
  return (
    <p className="muted small" data-testid="problems-hidden">
      {plural(total, 'more file')} that cannot be used {total === 1 ? 'is' : 'are'} not listed, in{' '}
      {hidden.map((f) => f.path).join(', ')}: fix or move them, then rescan.
    </p>
  );
}
