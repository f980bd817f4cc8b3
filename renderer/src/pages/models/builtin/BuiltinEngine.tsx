import { useEffect, useMemo, useRef, useState } from 'react';
import type { LocalModel, LocalModels } from '@shared/contract/local-models';
import { Empty, ErrorState, Loading } from '../../../components/States';
import { useDownloads, useEngineStatus, useLibraryActions, useLocalLibrary } from '../../../hooks/local';
import { formatBytes } from '../../../lib/format';
import { useRoute } from '../../../store/route';
import { ErrorLine } from '../Modal';
import { DownloadList } from './Downloads';
import { EngineBar } from './EngineBar';
import { Folders, FOLDER_INPUT_ID } from './Folders';
import { HiddenProblems, LibraryTable, matches } from './LibraryTable';
import { DeleteLocalDialog, LoadDialog } from './LoadDialog';
import { RecommendationCard } from './Recommendation';
import { ServerCard } from './ServerCard';
import './builtin.css';
import { plural } from '@shared/plural';

/** The built-in engine's tab: what is loaded, downloads, the GGUFs on disk, the folders scanned, the local server. */
export function BuiltinEngine() {
  const lib = useLocalLibrary();
  // An action's answer is the new library: shown at once, until the next scan answers.
  const [fresh, setFresh] = useState<LocalModels>();
  useEffect(() => setFresh(undefined), [lib.data]);
  const library = fresh ?? lib.data;
  const [deleting, setDeleting] = useState<LocalModel>();
  const actions = useLibraryActions((l) => {
    setFresh(l);
    setDeleting(undefined);
  });
  const engine = useEngineStatus();
  const { downloads, error: downloadsError } = useDownloads();
  const [filter, setFilter] = useState('');
  const params = useRoute((s) => s.params);
  const go = useRoute((s) => s.go);

  // A finished download is a new file on disk: scan again once for each.
  const done = useRef(new Set<string>());
  const { revalidate } = lib;
  useEffect(() => {
    const finished = (downloads ?? []).filter((d) => d.state === 'done' && !done.current.has(d.id));
    if (finished.length === 0) return;
    finished.forEach((d) => done.current.add(d.id));
    void revalidate();
  }, [downloads, revalidate]);

  // #/models/builtin/load/<id> (a finished download, the recommendation) opens the load form; the user confirms.
  const routedLoad = params[1] === 'load' ? params.slice(2).join('/') : undefined;
  const [loading, setLoading] = useState<LocalModel>();
  const loadTarget = loading ?? library?.models.find((m) => m.id === routedLoad);
  const closeLoad = () => {
    setLoading(undefined);
    if (routedLoad !== undefined) go('models', 'builtin');
  };

  const models = library?.models;
  const shown = useMemo(() => (models ?? []).filter((m) => matches(m, filter)), [models, filter]);
  const diskBytes = (models ?? []).reduce((n, m) => n + m.sizeBytes, 0);
  const loaded = engine.status?.loaded ?? [];
  // A link to load a model that is loaded already (a finished download, the recommendation) says so, not a second Load.
  const alreadyLoaded = !!loadTarget && loaded.some((l) => l.id === loadTarget.id);

  return (
    <div className="builtin" data-testid="builtin">
      <EngineBar engine={engine} />
      <DownloadList
        downloads={downloads}
        error={downloadsError}
        loaded={loaded.map((l) => l.id)}
        onLoad={(id) => go('models', 'builtin', 'load', id)}
      />
      <div className="builtin-grid">
        <div className="builtin-main">
          {!library ? (
            lib.state === 'error' ? (
              <ErrorState error={lib.error} title="Could not list the models on disk" onRetry={lib.reload} />
            ) : (
              <Loading label="Looking for GGUF files on disk…" />
            )
          ) : library.models.length === 0 ? (
            <Empty
              title="No models on disk yet"
              action={
                <button className="btn" onClick={() => focusFolderField()}>
                  Add a folder
                </button>
              }
            >
              <p>
                Models in your Hugging Face cache and LM Studio’s folder are found automatically; none is there yet.
                Start with a small one that fits this machine, or add a folder that holds GGUF files.
              </p>
              <RecommendationCard />
            </Empty>
          ) : (
            <>
              <div className="models-toolbar">
                <input
                  type="search"
                  className="search"
                  placeholder="Filter by name, repo, quant, source…"
                  aria-label="Filter models on disk"
                  value={filter}
                  onChange={(e) => setFilter(e.target.value)}
                />
                <span className="muted small" data-testid="library-summary">
                  {shown.length === library.models.length
                    ? plural(library.models.length, 'model')
                    : `${shown.length} of ${library.models.length}`}{' '}
                  · {formatBytes(diskBytes)} on disk
                </span>
              </div>
              {lib.state === 'error' && <ErrorLine error={lib.error} />}
              {routedLoad !== undefined && !loadTarget && (
                <p className="field-error" role="alert">
                  “{routedLoad}” is not on disk (yet): rescan, or check its folder below.
                </p>
              )}
              {alreadyLoaded && routedLoad !== undefined && (
                <p className="help" role="status" data-testid="already-loaded">
                  {loadTarget.name} is loaded already: chat with it, or unload it to load it with other settings.
                </p>
              )}
              {shown.length === 0 ? (
                <Empty title="No model matches">Nothing matches “{filter}”.</Empty>
              ) : (
                <LibraryTable
                  models={shown}
                  loaded={loaded}
                  busy={engine.load.busy || engine.unload.busy}
                  onLoad={setLoading}
                  onUnload={(m) => void engine.unload.run(m.id)}
                  onDelete={setDeleting}
                />
              )}
              <HiddenProblems folders={library.folders} />
            </>
          )}
        </div>
        <aside className="builtin-side" aria-label="Folders and local server">
          {library && (
            <Folders
              folders={library.folders}
              actions={actions}
              onRescan={() => void lib.rescan.run()}
              rescanning={lib.rescan.busy}
            />
          )}
          <ServerCard models={library?.models} />
        </aside>
      </div>
      {loadTarget && !alreadyLoaded && <LoadDialog model={loadTarget} engine={engine} onClose={closeLoad} />}
      {deleting && <DeleteLocalDialog model={deleting} actions={actions} onClose={() => setDeleting(undefined)} />}
    </div>
  );
}

/** The empty state's "Add a folder": to the path field of the Folders card (focus scrolls it into view). */
function focusFolderField() {
  document.getElementById(FOLDER_INPUT_ID)?.focus();
}
