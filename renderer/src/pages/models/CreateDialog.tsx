import { useState } from 'react';
import type { LocalModel } from '@shared/contract/ollama';
import { modelNameProblem } from '@shared/model-name';
import { usePulls } from '../../store/pulls';
import { Modal } from './Modal';
import { parseParameters, type ModelfileParameters } from './modelfile-parameters';

/** A new model from a local one with its own system prompt and parameters (ollama create). */
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
    const parameters: ModelfileParameters = { ...parsed.params };
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
