import { useState } from 'react';
import type { LocalFolder } from '@shared/contract/local-models';
import type { useLibraryActions } from '../../../hooks/local';
import { ErrorLine } from '../Modal';
import { sourceLabels } from './format';
import { plural } from '@shared/plural';

export const FOLDER_INPUT_ID = 'add-folder-path';

/** The folders scanned for GGUFs: found ones (HF cache, LM Studio, downloads) and the user's; add, forget, rescan. */
export function Folders({
  folders,
  actions,
  onRescan,
  rescanning,
}: {
  folders: LocalFolder[];
  actions: ReturnType<typeof useLibraryActions>;
  onRescan: () => void;
  rescanning: boolean;
}) {
  const [path, setPath] = useState('');
  const { addFolder, forgetFolder } = actions;
  const add = async () => {
    if (path.trim() && (await addFolder.run(path.trim()))) setPath('');
  };
  return (
    <section className="card folders" aria-labelledby="folders-title" data-testid="folders">
      <div className="card-head">
        <h2 id="folders-title">Folders</h2>
        <span className="spacer" />
        <button className="btn btn-sm" onClick={onRescan} disabled={rescanning}>
          {rescanning ? 'Scanning…' : 'Rescan'}
        </button>
      </div>
      <ul className="folder-list">
        {folders.map((f) => (
          <li key={f.path} className="folder" data-testid="folder" data-path={f.path}>
            <div className="folder-line">
              <span className="mono folder-path" title={f.path}>
                {f.path}
              </span>
              <button
                className="btn btn-sm btn-ghost"
                onClick={() => void forgetFolder.run(f.path)}
                disabled={forgetFolder.busy}
                aria-label={`${f.auto ? 'Hide' : 'Forget'} ${f.path}`}
                title="The files stay on disk"
              >
                {f.auto ? 'Hide' : 'Forget'}
              </button>
            </div>
            <span className="muted small">
              {sourceLabels[f.source]} · {f.auto ? 'found automatically' : 'added by you'} ·{' '}
              {f.exists ? plural(f.models, 'model') : 'not on this machine'}
              {f.problemsHidden ? ` · ${plural(f.problemsHidden, 'more file')} with problems not listed` : null}
            </span>
          </li>
        ))}
      </ul>
      <p className="help">Forgetting or hiding a folder only stops HubDesk listing it: the files stay on disk.</p>
      <form
        className="add-folder"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label htmlFor={FOLDER_INPUT_ID}>Add a folder</label>
        <div className="field-row">
          <input
            id={FOLDER_INPUT_ID}
            className="mono"
            placeholder="/path/to/models"
            value={path}
            onChange={(e) => {
              setPath(e.target.value);
              addFolder.clear();
            }}
            aria-invalid={addFolder.error ? true : undefined}
          />
          <button className="btn" type="submit" disabled={!path.trim() || addFolder.busy}>
            {addFolder.busy ? 'Adding…' : 'Add folder'}
          </button>
        </div>
        <p className="help">GGUF files in it and its subfolders are listed and run in place, never copied.</p>
      </form>
      <ErrorLine error={addFolder.error ?? forgetFolder.error} />
    </section>
  );
}
