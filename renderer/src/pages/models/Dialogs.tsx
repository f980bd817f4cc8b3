import { useId, useRef, useState, type ReactNode } from 'react';
import type { LocalModel } from '@shared/contract/ollama';
import type { AppErrorShape } from '@shared/errors';
import { useDialog } from '../../components/useDialog';
import { formatBytes } from '../../lib/format';
import { usePulls } from '../../store/pulls';
import { modelNameProblem } from '@shared/model-name';
import { pushTarget } from '@shared/push-target';
import { localModels } from '../../hooks/models';
import { useAction } from '../../hooks/query';

function Modal({
  title,
  onClose,
  children,
  footer,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer: ReactNode;
  wide?: boolean;
}) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useDialog(ref, onClose, 'input, textarea, .modal-footer .btn');
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className={`modal card${wide ? ' modal-wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
      >
        <h2 id={id}>{title}</h2>
        <div className="modal-body">{children}</div>
        <div className="modal-footer">{footer}</div>
      </div>
    </div>
  );
}

function ErrorLine({ error }: { error?: AppErrorShape }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      {error.message}
      {error.status ? ` (HTTP ${error.status})` : ''}
    </p>
  );
}

export function DeleteDialog({
  model,
  onClose,
  onDone,
}: {
  model: LocalModel;
  onClose: () => void;
  onDone: () => void;
}) {
  const { busy, error, run } = useAction(async () => {
    await localModels.remove(model.name);
    onDone();
  });
  return (
    <Modal
      title={`Delete ${model.name}?`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Keep it
          </button>
          <button className="btn btn-danger" onClick={() => void run()} disabled={busy}>
            {busy ? 'Deleting…' : 'Delete'}
          </button>
        </>
      }
    >
      <p>
        Ollama removes this model and frees up to {formatBytes(model.size)} (layers shared with other models stay). You
        can pull it again later.
      </p>
      <ErrorLine error={error} />
    </Modal>
  );
}

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
  const { busy, error, run } = useAction(async () => {
    await localModels.copy(model.name, dest.trim());
    if (rename) await localModels.remove(model.name);
    const name = dest.trim();
    onDone(name.includes(':') ? name : `${name}:latest`);
  });
  const submit = () => {
    if (dest.trim() && !problem && !same) void run();
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
export function PushDialog({
  model,
  onClose,
  onPublish,
  onCopy,
}: {
  model: LocalModel;
  onClose: () => void;
  onPublish: () => void;
  onCopy: () => void;
}) {
  const checked = pushTarget(model.name);
  if ('refusal' in checked)
    return (
      <Modal
        title={`Push ${model.name}`}
        onClose={onClose}
        footer={
          <>
            <button className="btn" onClick={onClose}>
              Close
            </button>
            <button className="btn btn-primary" onClick={onCopy}>
              Copy / rename…
            </button>
          </>
        }
      >
        <p role="alert">{checked.refusal}</p>
      </Modal>
    );
  const { site, ref } = checked.target;
  return (
    <Modal
      title={`Publish ${model.name}?`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn btn-primary" onClick={onPublish}>
            Publish
          </button>
        </>
      }
    >
      <p>
        Publish {model.name} to {site} as {ref}? Ollama uploads its {formatBytes(model.size)} of weights there. Anyone
        can pull it with <code className="mono">ollama pull {site === 'ollama.com' ? ref : `${site}/${ref}`}</code>,
        unless the model is made private on {site}.
      </p>
      {site === 'ollama.com' && (
        <p className="help">
          ollama.com takes it only from an Ollama whose public key is added to the {ref.split('/')[0]} account
          (ollama.com → Settings → Ollama keys).
        </p>
      )}
    </Modal>
  );
}

/** Parses `name value` lines into Modelfile parameters; repeated names (stop) become lists. */
function parseParameters(text: string): {
  params: Record<string, string | number | (string | number)[]>;
  error?: string;
} {
  const params: Record<string, string | number | (string | number)[]> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-z_]+)\s+(.+)$/.exec(line);
    if (!m) return { params, error: `line ${i + 1}: expected "name value", e.g. "top_k 40"` };
    const [, key, rawValue] = m;
    let value: string | number = rawValue.trim();
    if (/^".*"$/.test(value)) value = value.slice(1, -1);
    else if (/^-?\d+(\.\d+)?$/.test(value)) value = Number(value);
    const prev = params[key];
    params[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return { params };
}

export function CreateDialog({
  from,
  onClose,
  onStarted,
}: {
  from: LocalModel;
  onClose: () => void;
  onStarted: () => void;
}) {
  const [name, setName] = useState('');
  const [system, setSystem] = useState('');
  const [temperature, setTemperature] = useState('');
  const [numCtx, setNumCtx] = useState('');
  const [extra, setExtra] = useState('');
  const create = usePulls((s) => s.create);
  const problem = name.trim() ? modelNameProblem(name) : undefined;
  const parsed = parseParameters(extra);
  const temp = temperature.trim() ? Number(temperature) : undefined;
  const ctx = numCtx.trim() ? Number(numCtx) : undefined;
  const tempBad = temp !== undefined && !(temp >= 0 && temp <= 2);
  const ctxBad = ctx !== undefined && !(Number.isInteger(ctx) && ctx >= 256);
  const invalid = !name.trim() || !!problem || !!parsed.error || tempBad || ctxBad;

  const run = () => {
    if (invalid) return;
    const parameters: Record<string, string | number | (string | number)[]> = { ...parsed.params };
    if (temp !== undefined) parameters.temperature = temp;
    if (ctx !== undefined) parameters.num_ctx = ctx;
    create({
      model: name.trim(),
      from: from.name,
      ...(system.trim() ? { system } : {}),
      ...(Object.keys(parameters).length ? { parameters } : {}),
    });
    onStarted();
  };
  return (
    <Modal
      wide
      title={`Create a model from ${from.name}`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn btn-primary" onClick={run} disabled={invalid}>
            Create
          </button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="create-name">New model name</label>
        <input
          id="create-name"
          className="mono wide"
          value={name}
          placeholder={`${from.name.split(':')[0]}-assistant`}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={problem ? true : undefined}
          spellCheck={false}
        />
        {problem && <p className="field-error">{problem}</p>}
      </div>
      <div className="field">
        <label htmlFor="create-system">System prompt</label>
        <textarea
          id="create-system"
          className="wide"
          rows={4}
          value={system}
          placeholder="You are a concise assistant that answers in one paragraph."
          onChange={(e) => setSystem(e.target.value)}
        />
      </div>
      <div className="field-grid">
        <div className="field">
          <label htmlFor="create-temp">Temperature</label>
          <input
            id="create-temp"
            inputMode="decimal"
            value={temperature}
            placeholder="0.8"
            onChange={(e) => setTemperature(e.target.value)}
            aria-invalid={tempBad || undefined}
          />
          {tempBad && <p className="field-error">between 0 and 2</p>}
        </div>
        <div className="field">
          <label htmlFor="create-ctx">Context length (num_ctx)</label>
          <input
            id="create-ctx"
            inputMode="numeric"
            value={numCtx}
            placeholder="4096"
            onChange={(e) => setNumCtx(e.target.value)}
            aria-invalid={ctxBad || undefined}
          />
          {ctxBad && <p className="field-error">a whole number of tokens, at least 256</p>}
        </div>
      </div>
      <div className="field">
        <label htmlFor="create-params">Other parameters</label>
        <textarea
          id="create-params"
          className="mono wide"
          rows={3}
          value={extra}
          placeholder={'top_k 40\nstop "<|eot_id|>"'}
          onChange={(e) => setExtra(e.target.value)}
        />
        {parsed.error ? (
          <p className="field-error">{parsed.error}</p>
        ) : (
          <p className="help">One Modelfile parameter per line. The new model shares the weights of {from.name}.</p>
        )}
      </div>
    </Modal>
  );
}
