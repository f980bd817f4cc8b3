import { useEffect, useState } from 'react';
import type { ChatParams, ConversationMeta } from '@shared/contract/chat';
import type { AppErrorShape } from '@shared/errors';
import { isHubRepoId, modelMismatch, modelOnSwitch } from '@shared/chat-model';
import { hubModelDetails } from '../../hooks/catalogue';
import { chatInfo } from '../../hooks/chat';
import { useChat } from '../../store/chat';
import { ToolSourcesPicker } from './ToolSourcesPicker';

function NumberField({
  label,
  value,
  step,
  placeholder,
  onChange,
}: {
  label: string;
  value: number | undefined;
  step?: number;
  placeholder?: string;
  onChange(v: number | undefined): void;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => setText(value === undefined ? '' : String(value)), [value]);
  const id = `param-${label.replace(/\W+/g, '-')}`;
  return (
    <label className="param" htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        type="number"
        step={step ?? 1}
        value={text}
        placeholder={placeholder ?? 'default'}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          const n = text.trim() === '' ? undefined : Number(text);
          if (n === undefined || Number.isFinite(n)) onChange(n);
        }}
      />
    </label>
  );
}

/** The conversation's backend, model, provider, system prompt and parameters; each change is saved at once. */
export function ConversationSettings({ meta, capabilities }: { meta: ConversationMeta; capabilities: string[] }) {
  const update = useChat((s) => s.update);
  const [models, setModels] = useState<string[]>([]);
  const [providers, setProviders] = useState<string[]>([]);
  const [error, setError] = useState<AppErrorShape>();
  const [system, setSystem] = useState(meta.system);
  useEffect(() => setSystem(meta.system), [meta.id, meta.system]);

  useEffect(() => {
    if (meta.backend !== 'ollama') return;
    let live = true;
    chatInfo
      .models()
      .then((r) => live && setModels(r.models.map((m) => m.name)))
      .catch(() => live && setModels([]));
    return () => {
      live = false;
    };
  }, [meta.backend]);

  useEffect(() => {
    if (meta.backend !== 'provider' || !isHubRepoId(meta.model)) return setProviders([]);
    let live = true;
    hubModelDetails(meta.model)
      .then((r) => live && setProviders((r.model.inferenceProviderMapping ?? []).map((p) => p.provider)))
      .catch(() => live && setProviders([]));
    return () => {
      live = false;
    };
  }, [meta.backend, meta.model]);

  const save = (patch: Parameters<typeof update>[1]) =>
    update(meta.id, patch).then(() => setError(undefined), setError);
  const setParam = <K extends keyof ChatParams>(k: K, v: ChatParams[K]) => {
    const params = { ...meta.params };
    if (v === undefined || (Array.isArray(v) && v.length === 0)) delete params[k];
    else params[k] = v;
    void save({ params });
  };
  const tools = capabilities.includes('tools');
  // A conversation saved before engines and models were matched can still hold an Ollama tag on the router.
  const mismatch = modelMismatch(meta.backend, meta.model);

  return (
    <div className="conv-settings" data-testid="conv-settings">
      <div className="conv-settings-row">
        <div className="segmented" role="radiogroup" aria-label="Backend">
          {(['ollama', 'provider'] as const).map((b) => (
            <button
              key={b}
              role="radio"
              aria-checked={meta.backend === b}
              className={meta.backend === b ? 'on' : ''}
              // The model goes along only if the other engine can use it; otherwise it is chosen there.
              onClick={() => b !== meta.backend && void save({ backend: b, model: modelOnSwitch(b, meta.model) })}
            >
              {b === 'ollama' ? 'Ollama' : 'HF router'}
            </button>
          ))}
        </div>
        {meta.backend === 'ollama' ? (
          <select
            aria-label="Model"
            value={meta.model}
            onChange={(e) => void save({ model: e.target.value })}
            data-testid="model-select"
          >
            <option value="">Choose a model…</option>
            {meta.model && !models.includes(meta.model) && <option value={meta.model}>{meta.model}</option>}
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <>
            <input
              aria-label="Model id"
              className="model-input"
              defaultValue={meta.model}
              key={meta.id + meta.backend}
              placeholder="owner/model, e.g. meta-llama/Llama-3.1-8B-Instruct"
              onBlur={(e) => e.target.value.trim() !== meta.model && void save({ model: e.target.value.trim() })}
            />
            <select
              aria-label="Provider"
              value={meta.provider}
              onChange={(e) => void save({ provider: e.target.value })}
            >
              <option value="auto">auto</option>
              {[...new Set([...providers, ...(meta.provider !== 'auto' ? [meta.provider] : [])])].map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </>
        )}
        <ToolSourcesPicker
          meta={meta}
          canCallTools={meta.backend !== 'ollama' || !meta.model || !capabilities.length || tools}
          onSave={(patch) => void save(patch)}
        />
        <label className="toggle">
          <input
            type="checkbox"
            checked={meta.params.think ?? false}
            onChange={(e) => setParam('think', e.target.checked)}
          />
          Think
        </label>
      </div>
      <label className="param param-wide">
        <span>System prompt</span>
        <textarea
          rows={2}
          value={system}
          placeholder="Optional instructions for the model"
          onChange={(e) => setSystem(e.target.value)}
          onBlur={() => system !== meta.system && void save({ system })}
        />
      </label>
      <div className="conv-params">
        <NumberField
          label="temperature"
          step={0.1}
          value={meta.params.temperature}
          onChange={(v) => setParam('temperature', v)}
        />
        <NumberField label="top_p" step={0.05} value={meta.params.top_p} onChange={(v) => setParam('top_p', v)} />
        <NumberField label="max tokens" value={meta.params.max_tokens} onChange={(v) => setParam('max_tokens', v)} />
        {meta.backend === 'ollama' && (
          <NumberField label="num_ctx" value={meta.params.num_ctx} onChange={(v) => setParam('num_ctx', v)} />
        )}
        <NumberField label="seed" value={meta.params.seed} onChange={(v) => setParam('seed', v)} />
        <label className="param">
          <span>stop (comma separated)</span>
          <input
            defaultValue={(meta.params.stop ?? []).join(', ')}
            key={meta.id}
            onBlur={(e) =>
              setParam(
                'stop',
                e.target.value
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              )
            }
          />
        </label>
      </div>
      {(error || mismatch) && (
        <p className="field-error" role="alert">
          {error?.message ?? mismatch}
        </p>
      )}
    </div>
  );
}
