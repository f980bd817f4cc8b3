import { useState } from 'react';
import type { LocalModel } from '@shared/contract/ollama';
import { modelNameProblem } from '@shared/model-name';
import { useCopyModel } from '../../hooks/models';
import { ErrorLine, Modal } from './Modal';

/** Copy (or rename) a local model under a new name, warning before it replaces one already there. */
export function CopyDialog({
  model,
  existing,
  onClose,
  onDone,
}: {
  model: LocalModel;
  /** Names (`name:tag`) already in Ollama: copying onto one of them replaces it without a word from Ollama. */
  existing: string[];
  onClose: () => void;
  /** Called with the new model's full name (`name:tag`). */
  onDone: (name: string) => void;
}) {
  const [dest, setDest] = useState('');
  const [rename, setRename] = useState(false);
  const problem = dest.trim() ? modelNameProblem(dest) : undefined;
  const full = dest.trim().includes(':') ? dest.trim() : `${dest.trim()}:latest`;
  const clash = !problem && dest.trim() && existing.includes(full) ? full : undefined;
  const same = clash === model.name;
  const { busy, error, run } = useCopyModel(model.name, onDone);
  const submit = () => {
    if (dest.trim() && !problem && !same) void run(dest.trim(), rename);
  };
  return (
    <Modal
      title={`Copy ${model.name}`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn btn-primary" onClick={submit} disabled={busy || !dest.trim() || !!problem || same}>
            {busy ? 'Working…' : clash ? `Replace ${clash}` : rename ? 'Rename' : 'Copy'}
          </button>
        </>
      }
    >
      <form onSubmit={(e) => (e.preventDefault(), submit())}>
        <div className="field">
          <label htmlFor="copy-dest">New name</label>
          <input
            id="copy-dest"
            className="mono wide"
            value={dest}
            placeholder={`${model.name.split(':')[0]}-copy`}
            onChange={(e) => setDest(e.target.value)}
            aria-invalid={problem || same ? true : undefined}
            aria-describedby="copy-dest-note"
            spellCheck={false}
          />
          {problem ? (
            <p className="field-error" id="copy-dest-note">
              {problem}
            </p>
          ) : same ? (
            <p className="field-error" id="copy-dest-note">
              That is this model’s own name.
            </p>
          ) : clash ? (
            <p className="field-error" id="copy-dest-note" role="alert">
              {clash} already exists. Copying replaces it; its own weights are deleted unless another model uses them.
            </p>
          ) : (
            <p className="help" id="copy-dest-note">
              A copy shares its layers with the original: it takes no extra disk space.
            </p>
          )}
        </div>
        <label className="check">
          <input type="checkbox" checked={rename} onChange={(e) => setRename(e.target.checked)} /> Remove the original
          afterwards (rename)
        </label>
      </form>
      <ErrorLine error={error} />
    </Modal>
  );
}

/**
 * The confirmation before a push: nothing leaves the machine until the user has read what is published and where. A
 * name without the user's namespace cannot be published (it would go to Ollama's own library): the dialog says so and
 * offers Copy / rename instead.
 */
