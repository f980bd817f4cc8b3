import type { ComparePaneInput } from '@shared/contract/compare';
import type { ChatParams } from '@shared/contract/chat';
import { modelOnSwitch } from '@shared/chat-model';
import type { Endpoint } from '@shared/contract/endpoints';
import { useChatModelNames } from '../../hooks/chat';
import { useEndpointModels } from '../../hooks/endpoints';
import { endpointLabel } from '../../lib/endpoint-presets';
import { EndpointOptions, optionValue, parseOption } from '../chat/EndpointModelOptions';
import { LocalModelOptions } from '../chat/LocalModelOptions';
import { NumberField } from '../chat/NumberField';

/** The engine select's value: the backend, or an endpoint's id. */
const engineValue = (p: ComparePaneInput) => (p.backend === 'endpoint' ? (p.endpoint ?? '') : p.backend);

function OllamaModel({ pane, onChange }: { pane: ComparePaneInput; onChange(p: Partial<ComparePaneInput>): void }) {
  const models = useChatModelNames(true);
  return (
    <select aria-label="Model" value={pane.model} onChange={(e) => onChange({ model: e.target.value })}>
      <option value="">Choose a model…</option>
      {pane.model && !models.includes(pane.model) && <option value={pane.model}>{pane.model}</option>}
      {models.map((m) => (
        <option key={m} value={m}>
          {m}
        </option>
      ))}
    </select>
  );
}

function EndpointModel({
  endpoint,
  pane,
  onChange,
}: {
  endpoint: Endpoint;
  pane: ComparePaneInput;
  onChange(p: Partial<ComparePaneInput>): void;
}) {
  const { lists } = useEndpointModels([endpoint.id]);
  const value = pane.model ? optionValue(endpoint.id, pane.model) : '';
  return (
    <select aria-label="Model" value={value} onChange={(e) => onChange({ model: parseOption(e.target.value).model })}>
      <option value="">Choose a model…</option>
      <EndpointOptions endpoint={endpoint} lists={lists[endpoint.id]} />
    </select>
  );
}

/**
 * One pane's setup: its engine, its model, and its own settings (over the shared ones), folded. The same model may
 * be in two panes, e.g. at two temperatures.
 */
export function PaneEditor({
  index,
  pane,
  endpoints,
  canRemove,
  disabled,
  onChange,
  onRemove,
}: {
  index: number;
  pane: ComparePaneInput;
  endpoints: Endpoint[];
  canRemove: boolean;
  disabled: boolean;
  onChange(p: Partial<ComparePaneInput>): void;
  onRemove(): void;
}) {
  const endpoint = pane.backend === 'endpoint' ? endpoints.find((e) => e.id === pane.endpoint) : undefined;
  const params: ChatParams = pane.params ?? {};
  const setParam = <K extends keyof ChatParams>(k: K, v: ChatParams[K]) => {
    const next = { ...params, [k]: v };
    if (v === undefined) delete next[k];
    onChange({ params: next });
  };
  const chooseEngine = (v: string) => {
    const e = endpoints.find((x) => x.id === v);
    if (e) return onChange({ backend: 'endpoint', endpoint: e.id, model: '' });
    const backend = v as 'ollama' | 'local' | 'provider';
    onChange({ backend, endpoint: undefined, model: modelOnSwitch(backend, pane.model) });
  };
  const own = Object.keys(params).length;
  return (
    <fieldset className="cmp-pane-editor" disabled={disabled} data-testid="pane-editor">
      <legend>Pane {index + 1}</legend>
      <div className="cmp-pane-pick">
        <select aria-label="Engine" value={engineValue(pane)} onChange={(e) => chooseEngine(e.target.value)}>
          <option value="ollama">Ollama</option>
          <option value="local">Built-in (llama.cpp)</option>
          <option value="provider">HF router</option>
          {endpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {endpointLabel(e)}
            </option>
          ))}
        </select>
        {pane.backend === 'ollama' && <OllamaModel pane={pane} onChange={onChange} />}
        {pane.backend === 'local' && <LocalModelOptions model={pane.model} onPick={(model) => onChange({ model })} />}
        {pane.backend === 'provider' && (
          <input
            aria-label="Model id"
            placeholder="owner/model"
            defaultValue={pane.model}
            onBlur={(e) => onChange({ model: e.target.value.trim() })}
          />
        )}
        {endpoint && <EndpointModel endpoint={endpoint} pane={pane} onChange={onChange} />}
        {pane.backend === 'endpoint' && !endpoint && (
          <span className="field-error" role="alert">
            This endpoint was removed: choose another engine.
          </span>
        )}
      </div>
      <details className="cmp-fold">
        <summary>Pane settings{own ? ` · ${own} set` : ''}</summary>
        <div className="conv-params">
          <NumberField
            label={`temperature (pane ${index + 1})`}
            step={0.1}
            value={params.temperature}
            onChange={(v) => setParam('temperature', v)}
          />
          <NumberField
            label={`context (pane ${index + 1})`}
            placeholder="shared"
            value={params.num_ctx}
            onChange={(v) => setParam('num_ctx', v)}
          />
        </div>
      </details>
      {canRemove && (
        <button className="btn btn-ghost btn-xs cmp-remove" onClick={onRemove} aria-label={`Remove pane ${index + 1}`}>
          Remove
        </button>
      )}
    </fieldset>
  );
}
