import { useCallback, useMemo, useState } from 'react';
import type { LocalModel } from '@shared/contract/ollama';
import { Empty, ErrorState, Loading } from '../../components/States';
import { useLocalModels } from '../../hooks/models';
import { ExternalLink } from '../../components/ExternalLink';
import { formatBytes } from '../../lib/format';
import { OLLAMA_DOWNLOAD, ollamaLibrary } from '../../lib/ollama-library';
import { usePulls } from '../../store/pulls';
import { hrefFor, useRoute } from '../../store/route';
import { BuiltinPage } from './builtin/BuiltinPage';
import { EngineTabs, enginePanelId, engineTabLabel } from './builtin/EngineTabs';
import { NoOllamaOffer } from './builtin/Recommendation';
import { CopyDialog } from './CopyDialog';
import { CreateDialog } from './CreateDialog';
import { DeleteDialog } from './DeleteDialog';
import { DetailsDrawer } from './DetailsDrawer';
import { ModelTable, sortModels, type ModelSort } from './ModelTable';
import { EmbedPlayground, RunningModels } from './Panels';
import { PushDialog } from './PushDialog';
import { JobsPanel, PullForm } from './PullPanel';
import './models.css';
import { plural } from '@shared/plural';

const suggestions = ollamaLibrary.filter((m) => m.starter);

/** Beside "Ollama is not running": how to start it, or where to get it. */
function OllamaInstall() {
  return (
    <p className="ollama-install small">
      Run <code className="mono">ollama serve</code> in a terminal (or open the Ollama app). Not installed?{' '}
      <ExternalLink href={OLLAMA_DOWNLOAD} testId="ollama-download">
        Download Ollama
      </ExternalLink>
    </p>
  );
}

type Dialog = { kind: 'delete' | 'copy' | 'create' | 'push'; model: LocalModel };

/** `#/models` is Ollama's tab (as before the built-in engine), `#/models/builtin` the built-in engine's. */
export function ModelsPage() {
  const builtin = useRoute((s) => s.params[0] === 'builtin');
  return builtin ? <BuiltinPage /> : <OllamaModels />;
}

function OllamaModels() {
  const { models, error, load } = useLocalModels();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<ModelSort>({ key: 'modified', desc: true });
  const [selected, setSelected] = useState<string>();
  const [dialog, setDialog] = useState<Dialog>();
  const [pullOpen, setPullOpen] = useState(false);
  const [psTick, setPsTick] = useState(0);
  const params = useRoute((s) => s.params);
  const go = useRoute((s) => s.go);
  const startPull = usePulls((s) => s.pull);
  const startPush = usePulls((s) => s.push);

  // #/models/pull/<name> (the catalogue's "Run locally") opens the form pre-filled; the user confirms.
  const routedPull = params[0] === 'pull' ? params.slice(1).join('/') : undefined;
  const formOpen = pullOpen || routedPull !== undefined;
  const closeForm = useCallback(() => {
    setPullOpen(false);
    if (routedPull !== undefined) go('models');
  }, [routedPull, go]);

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
    return sortModels(list, sort);
  }, [models, filter, sort]);

  const selectedModel = models?.find((m) => m.name === selected);
  // Nothing can be pulled while Ollama is not running: the button is off and says why.
  const noOllama = error?.code === 'unavailable';
  const pullOff = noOllama ? 'Ollama is not running: start it to pull a model.' : undefined;

  const afterChange = () => {
    setDialog(undefined);
    void load();
  };

  return (
    <section className="page models-page">
      <header className="page-header">
        <h1>Local models</h1>
        <button
          className="btn btn-primary"
          onClick={() => setPullOpen(true)}
          disabled={formOpen || noOllama}
          aria-describedby={pullOff ? 'pull-off' : undefined}
        >
          Pull a model
        </button>
        {pullOff && (
          <span className="muted small" id="pull-off" data-testid="pull-off">
            {pullOff}
          </span>
        )}
        <button className="btn" onClick={() => void load()}>
          Refresh
        </button>
      </header>
      <EngineTabs value="ollama" />
      <div role="tabpanel" id={enginePanelId} aria-labelledby={engineTabLabel('ollama')}>
        {formOpen && <PullForm initial={routedPull ?? ''} onDone={closeForm} off={pullOff} />}
        <JobsPanel down={noOllama ? error.message : undefined} />

        {error ? (
          <>
            <ErrorState
              error={error}
              title={noOllama ? 'Ollama is not running' : 'Could not list local models'}
              onRetry={() => void load()}
              action={error.code === 'unavailable' && <OllamaInstall />}
            />
            <p className="muted small models-retrying" role="status">
              The list comes back on its own when Ollama answers again.
            </p>
            {error.code === 'unavailable' && <NoOllamaOffer />}
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
            Ollama has no models yet. Start with one of these small ones — they run on most machines — or find another
            in the <a href={hrefFor('catalogue')}>catalogue</a> and choose “Run locally”.
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
                {shown.length === models.length
                  ? plural(models.length, 'model')
                  : `${shown.length} of ${models.length}`}{' '}
                ·{' '}
                <span title="Copies are counted once; layers shared between different models may be counted twice.">
                  {formatBytes(diskBytes)} on disk
                </span>
              </span>
            </div>
            {shown.length === 0 ? (
              <Empty title="No model matches">Nothing matches “{filter}”.</Empty>
            ) : (
              <ModelTable
                models={shown}
                sort={sort}
                onSort={setSort}
                onSelect={setSelected}
                onDelete={(m) => setDialog({ kind: 'delete', model: m })}
              />
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
      </div>
    </section>
  );
}
