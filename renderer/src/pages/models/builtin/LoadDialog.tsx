import { useState } from 'react';
import type { LocalModel } from '@shared/contract/local-models';
import { memoryForTokens, memoryLine } from '@shared/fit';
import { useLibraryActions } from '../../../hooks/local';
import { formatBytes } from '../../../lib/format';
import { ConfirmDelete, ErrorLine, Modal } from '../Modal';
import { formatTokens } from './format';
import type { EngineControl } from './types';

const MIN_CTX = 128;
const MAX_CTX = 1_048_576;
const MAX_SEQUENCES = 16;
const MAX_THREADS = 256;

/** Whole number in [min, max], or the reason it is not. */
function check(text: string, min: number, max: number): string | undefined {
  if (!/^\d+$/.test(text.trim())) return 'a whole number';
  const n = Number(text);
  if (n < min || n > max) return `between ${formatTokens(min)} and ${formatTokens(max)}`;
  return undefined;
}

/** Load with the context length, GPU layers and parallel requests the fit verdict proposes, all editable. */
export function LoadDialog({
  model,
  engine,
  onClose,
}: {
  model: LocalModel;
  engine: EngineControl;
  onClose: () => void;
}) {
  const plan = model.plan;
  const maxCtx = Math.min(plan?.maxContext ?? MAX_CTX, MAX_CTX);
  const maxLayers = plan?.layers ?? 1000;
  const [ctx, setCtx] = useState(String(plan?.contextSize ?? Math.min(4096, maxCtx)));
  const [gpu, setGpu] = useState(String(plan?.gpuLayers ?? 0));
  const [seq, setSeq] = useState(String(plan?.sequences ?? 1));
  const setting = engine.status?.threads;
  const [thr, setThr] = useState(String(setting?.value ?? 1));
  const ctxError = check(ctx, MIN_CTX, maxCtx);
  const gpuError = check(gpu, 0, maxLayers);
  const seqError = check(seq, 1, MAX_SEQUENCES);
  const thrError = check(thr, 1, MAX_THREADS);
  const invalid = !!(ctxError || gpuError || seqError || thrError);
  const { load } = engine;
  // The engine's setting applies unless this load asks for another count.
  const threads = Number(thr) === setting?.value ? undefined : Number(thr);
  const submit = async () => {
    if (invalid) return;
    const s = await load.run({
      id: model.id,
      contextSize: Number(ctx),
      gpuLayers: Number(gpu),
      sequences: Number(seq),
      ...(threads !== undefined ? { threads } : {}),
    });
    if (s) onClose();
  };
  return (
    <Modal
      title={`Load ${model.name}`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn btn-primary" type="submit" form="load-form" disabled={load.busy || invalid}>
            {load.busy ? 'Loading…' : 'Load'}
          </button>
        </>
      }
    >
      <form
        id="load-form"
        data-testid="load-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p className="muted small">
          {formatBytes(model.sizeBytes)}
          {model.quant ? ` · ${model.quant}` : ''}
          {plan?.maxContext ? ` · trained for ${formatTokens(plan.maxContext)} tokens` : ''}
          {plan?.layers ? ` · ${plan.layers} layers` : ''}
        </p>
        <div className="field-grid">
          <NumberField id="load-ctx" label="Context length (tokens)" value={ctx} onChange={setCtx} error={ctxError} />
          <NumberField id="load-gpu" label="GPU layers" value={gpu} onChange={setGpu} error={gpuError} />
        </div>
        <NumberField
          id="load-sequences"
          className="load-sequences"
          label="Parallel requests"
          value={seq}
          onChange={setSeq}
          error={seqError}
          hint={`Each has its own context${ctxError ? '' : ` of ${formatTokens(Number(ctx))} tokens`}, so memory grows with each.`}
        />
        <NumberField
          id="load-threads"
          className="load-threads"
          label="CPU threads"
          value={thr}
          onChange={setThr}
          error={thrError}
          hint={threadsHint(setting)}
        />
        {plan?.memory && !ctxError && !seqError && (
          <p className="help" data-testid="load-memory">
            Memory for these settings:{' '}
            {memoryLine(
              memoryForTokens(plan.memory, plan.contextSize * (plan.sequences ?? 1), Number(ctx) * Number(seq)),
            )}
            .
          </p>
        )}
        <p className="help" data-testid="load-plan">
          {plan?.explanation ??
            'No fit estimate for this file: start with a short context and raise it if the model loads.'}{' '}
          {plan && plan.gpuLayers === 0 && 'No GPU layers: it runs on the CPU.'}
        </p>
      </form>
      <ErrorLine error={load.error} />
    </Modal>
  );
}

/** What the threads field's number means: the engine's setting, and why more is not faster. */
function threadsHint(setting?: { value: number; auto: boolean }): string {
  const from = setting
    ? setting.auto
      ? `The engine's automatic count is ${setting.value} (every core but one).`
      : `The engine's setting is ${setting.value}.`
    : '';
  return `${from} More threads than free cores make replies slower, not faster: llama.cpp's threads wait on each other.`.trim();
}

function NumberField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  className,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  /** A line under the field on what the number means. */
  hint?: string;
  className?: string;
}) {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {error && (
        <p className="field-error" id={`${id}-error`}>
          Use {error}.
        </p>
      )}
      {hint && (
        <p className="help" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** "Delete <model>?": only for files HubDesk downloaded; every part is removed from disk. Closed by the page once done. */
export function DeleteLocalDialog({
  model,
  actions,
  onClose,
}: {
  model: LocalModel;
  actions: ReturnType<typeof useLibraryActions>;
  onClose: () => void;
}) {
  const { remove } = actions;
  return (
    <ConfirmDelete
      name={model.name}
      confirm="Delete files"
      busy={remove.busy}
      error={remove.error}
      onConfirm={() => void remove.run(model.id)}
      onClose={onClose}
    >
      <p>
        HubDesk downloaded this model; deleting removes its file{model.parts > 1 ? `s (${model.parts} parts)` : ''} from
        disk and frees {formatBytes(model.sizeBytes)}. You can download it again from its model page.
      </p>
      <p className="muted small mono">{model.path}</p>
    </ConfirmDelete>
  );
}
