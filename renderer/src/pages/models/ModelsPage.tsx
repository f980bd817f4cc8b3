import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LocalModel } from '@shared/contract/ollama';
import type { AppErrorShape } from '@shared/errors';
import { Empty, ErrorState, Loading } from '../../components/States';
import { formatAge, formatBytes } from '../../lib/format';
import { usePulls } from '../../store/pulls';
import { hrefFor, useRoute } from '../../store/route';
import { useStatus } from '../../store/status';
import { DetailsDrawer } from './DetailsDrawer';
import { CopyDialog, CreateDialog, DeleteDialog, PushDialog } from './Dialogs';
import { EmbedPlayground, RunningModels } from './Panels';
import { JobsPanel, PullForm } from './PullPanel';
import './models.css';
import { localModels } from '../../hooks/models';

type SortKey = 'name' | 'family' | 'params' | 'quant' | 'size' | 'modified';

/** "3.2B" / "751.63M" → a number of parameters, for sorting. */
const paramCount = (s?: string) => {
  const m = /^([\d.]+)\s*([KMBT]?)/i.exec(s ?? '');
  if (!m) return 0;
  return Number(m[1]) * ({ K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[m[2].toUpperCase()] ?? 1);
};

const sorters: Record<SortKey, (a: LocalModel, b: LocalModel) => number> = {
  name: (a, b) => a.name.localeCompare(b.name),
  family: (a, b) => (a.details.family ?? '').localeCompare(b.details.family ?? ''),
  params: (a, b) => paramCount(a.details.parameter_size) - paramCount(b.details.parameter_size),
  quant: (a, b) => (a.details.quantization_level ?? '').localeCompare(b.details.quantization_level ?? ''),
  size: (a, b) => a.size - b.size,
  modified: (a, b) => Date.parse(a.modified_at) - Date.parse(b.modified_at),
};

const columns: { key: SortKey; label: string; num?: boolean }[] = [
  { key: 'name', label: 'Name' },
  { key: 'family', label: 'Family' },
  { key: 'params', label: 'Parameters' },
  { key: 'quant', label: 'Quantization' },
  { key: 'size', label: 'Size', num: true },
  { key: 'modified', label: 'Modified' },
];

const suggestions = [
  { name: 'llama3.2', note: 'Meta · 3B · 2.0 GB' },
  { name: 'qwen3:1.7b', note: 'Qwen · thinks · 1.4 GB' },
  { name: 'gemma3:1b', note: 'Google · 1B · 815 MB' },
];

const retryDelay = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(1, failures));

type Dialog = { kind: 'delete' | 'copy' | 'create' | 'push'; model: LocalModel };

export function ModelsPage() {
  const [models, setModels] = useState<LocalModel[]>();
  const [error, setError] = useState<AppErrorShape>();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'modified', desc: true });
  const [selected, setSelected] = useState<string>();
  const [dialog, setDialog] = useState<Dialog>();
  const [pullOpen, setPullOpen] = useState(false);
  const [psTick, setPsTick] = useState(0);
  const params = useRoute((s) => s.params);
  const go = useRoute((s) => s.go);
  const generation = usePulls((s) => s.generation);
  const startPull = usePulls((s) => s.pull);
  const startPush = usePulls((s) => s.push);
  const refreshStatus = useStatus((s) => s.refresh);

  // #/models/pull/<name> (the catalogue's "Run locally") opens the form pre-filled; the user confirms.
  const routedPull = params[0] === 'pull' ? params.slice(1).join('/') : undefined;
  const formOpen = pullOpen || routedPull !== undefined;
  const closeForm = useCallback(() => {
    setPullOpen(false);
    if (routedPull !== undefined) go('models');
  }, [routedPull, go]);

  const failures = useRef(0);
  const load = useCallback(async () => {
    try {
      setModels((await localModels.list()).models);
      setError(undefined);
      failures.current = 0;
    } catch (e) {
      failures.current++;
      setError(e as AppErrorShape);
      void refreshStatus();
    }
  }, [refreshStatus]);
  useEffect(() => void load(), [load, generation]);

  // While Ollama is down the page tries again on its own, backing off (2 s, 4 s … 30 s) so a stopped
  // Ollama is not hammered; each failed try sets a new error, which schedules the next one.
  useEffect(() => {
    if (!error) return;
    const t = window.setTimeout(() => void load(), retryDelay(failures.current));
    return () => window.clearTimeout(t);
  }, [error, load]);
  // …and reloads at once when the status bar sees Ollama answer again (only on that change, so no loop).
  const reachable = useStatus((s) => s.ollama?.reachable);
  const wasReachable = useRef(reachable);
  useEffect(() => {
    if (reachable && wasReachable.current === false) void load();
    wasReachable.current = reachable;
  }, [reachable, load]);

  // A copy has its original's manifest digest, so each digest is counted once. Different models that share
  // some layers are still counted in full: /api/tags gives no per-layer sizes.
  const diskBytes = useMemo(() => {
    const byDigest = new Map((models ?? []).map((m) => [m.digest || m.name, m.size]));
    return [...byDigest.values()].reduce((a, n) => a + n, 0);
  }, [models]);

  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const list = (models ?? []).filter(
      (m) =>
        !q ||
        [m.name, m.details.family, m.details.parameter_size, m.details.quantization_level].some((v) =>
          v?.toLowerCase().includes(q),
        ),
    );
    const cmp = sorters[sort.key];
    return list.sort((a, b) => (sort.desc ? -cmp(a, b) : cmp(a, b)) || a.name.localeCompare(b.name));
  }, [models, filter, sort]);

  const selectedModel = models?.find((m) => m.name === selected);
  const afterChange = () => {
    setDialog(undefined);
    void load();
  };

  return (
    <section className="page models-page">
      <header className="page-header">
        <h1>Local models</h1>
        <button className="btn btn-primary" onClick={() => setPullOpen(true)} disabled={formOpen}>
          Pull a model
        </button>
        <button className="btn" onClick={() => void load()}>
          Refresh
        </button>
      </header>

      {formOpen && <PullForm initial={routedPull ?? ''} onDone={closeForm} />}
      <JobsPanel />

      {error ? (
        <>
          <ErrorState error={error} title="Could not list local models" onRetry={() => void load()} />
          <p className="muted small models-retrying" role="status">
            The list comes back on its own when Ollama answers again.
          </p>
        </>
      ) : !models ? (
        <Loading label="Asking Ollama for its models…" />
      ) : models.length === 0 ? (
        <Empty
          title="Pull your first model"
          action={
            <div className="suggestions">
              {suggestions.map((s) => (
                <button key={s.name} className="btn suggestion" onClick={() => startPull(s.name)}>
                  <span className="mono">{s.name}</span>
                  <span className="muted small">{s.note}</span>
                </button>
              ))}
            </div>
          }
        >
          Ollama has no models yet. Start with one of these small ones — they run on most machines — or find another in
          the <a href={hrefFor('catalogue')}>catalogue</a> and choose “Run locally”.
        </Empty>
      ) : (
        <>
          <div className="models-toolbar">
            <input
              type="search"
              className="search"
              placeholder="Filter by name, family, quantization…"
              aria-label="Filter models"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
            <span className="muted small">
              {shown.length === models.length ? `${models.length} models` : `${shown.length} of ${models.length}`} ·{' '}
              <span title="Copies are counted once; layers shared between different models may be counted twice.">
                {formatBytes(diskBytes)} on disk
              </span>
            </span>
          </div>
          {shown.length === 0 ? (
            <Empty title="No model matches">Nothing matches “{filter}”.</Empty>
          ) : (
            <table className="table models-table" data-testid="models-table">
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th
                      key={c.key}
                      className={c.num ? 'num' : undefined}
                      aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : undefined}
                    >
                      <button
                        className="th-sort"
                        onClick={() =>
                          setSort((s) => ({ key: c.key, desc: s.key === c.key ? !s.desc : c.key === 'modified' }))
                        }
                      >
                        {c.label}
                        <span className="sort-mark" aria-hidden="true">
                          {sort.key === c.key ? (sort.desc ? '▼' : '▲') : ''}
                        </span>
                      </button>
                    </th>
                  ))}
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((m) => (
                  <tr key={m.name} data-model={m.name}>
                    <td className="mono">
                      <button className="link-button" onClick={() => setSelected(m.name)}>
                        {m.name}
                      </button>
                    </td>
                    <td>{m.details.family || '—'}</td>
                    <td>{m.details.parameter_size || '—'}</td>
                    <td>{m.details.quantization_level || '—'}</td>
                    <td className="num">{formatBytes(m.size)}</td>
                    <td title={m.modified_at}>{formatAge(m.modified_at)}</td>
                    <td className="row-actions">
                      <button className="btn btn-ghost btn-sm" onClick={() => setSelected(m.name)}>
                        Details
                      </button>
                      <button
                        className="btn btn-ghost btn-sm btn-danger"
                        onClick={() => setDialog({ kind: 'delete', model: m })}
                        aria-label={`Delete ${m.name}`}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}

      {!error && models && models.length > 0 && (
        <div className="models-panels">
          <RunningModels tick={psTick} />
          <EmbedPlayground models={models} onEmbedded={() => setPsTick((n) => n + 1)} />
        </div>
      )}

      {selectedModel && !dialog && (
        <DetailsDrawer
          model={selectedModel}
          onClose={() => setSelected(undefined)}
          onCopy={() => setDialog({ kind: 'copy', model: selectedModel })}
          onCreate={() => setDialog({ kind: 'create', model: selectedModel })}
          onPush={() => setDialog({ kind: 'push', model: selectedModel })}
          onDelete={() => setDialog({ kind: 'delete', model: selectedModel })}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          model={dialog.model}
          onClose={() => setDialog(undefined)}
          onDone={() => {
            setSelected(undefined);
            afterChange();
          }}
        />
      )}
      {dialog?.kind === 'copy' && (
        <CopyDialog
          model={dialog.model}
          existing={models?.map((m) => m.name) ?? []}
          onClose={() => setDialog(undefined)}
          onDone={(name) => {
            // The drawer follows the model to its new name (after a rename the old one is gone).
            setSelected(name);
            afterChange();
          }}
        />
      )}
      {dialog?.kind === 'push' && (
        <PushDialog
          model={dialog.model}
          onClose={() => setDialog(undefined)}
          onCopy={() => setDialog({ kind: 'copy', model: dialog.model })}
          onPublish={() => {
            startPush(dialog.model.name);
            setDialog(undefined);
            setSelected(undefined);
          }}
        />
      )}
      {dialog?.kind === 'create' && (
        <CreateDialog
          from={dialog.model}
          onClose={() => setDialog(undefined)}
          onStarted={() => {
            setDialog(undefined);
            setSelected(undefined);
          }}
        />
      )}
    </section>
  );
}
