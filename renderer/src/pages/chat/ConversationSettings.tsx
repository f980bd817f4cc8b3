import { useEffect, useState } from 'react';
import type { ChatParams, ConversationMeta } from '@shared/contract/chat';
import type { Endpoint } from '@shared/contract/endpoints';
import type { AppErrorShape } from '@shared/errors';
import { isHubRepoId, modelMismatch, modelOnSwitch } from '@shared/chat-model';
import { useChatModelNames, useRouterProviders } from '../../hooks/chat';
import { useEndpointList, useEndpointModels } from '../../hooks/endpoints';
import { endpointLabel } from '../../lib/endpoint-presets';
import { useChat } from '../../store/chat';
import { useRoute } from '../../store/route';
import { EndpointContextField } from './EndpointContextField';
import { LocalModelOptions } from './LocalModelOptions';
import { chatModels, EndpointModelInfo, EndpointOptions, optionValue, parseOption } from './EndpointModelOptions';
import { NumberField } from './NumberField';
import { ToolSourcesPicker } from './ToolSourcesPicker';

/** The conversation's backend, model, provider, system prompt and parameters; each change is saved at once. */
export function ConversationSettings({ meta, capabilities }: { meta: ConversationMeta; capabilities: string[] }) {
  const update = useChat((s) => s.update);
  const [error, setError] = useState<AppErrorShape>();
  const [system, setSystem] = useState(meta.system);
  useEffect(() => setSystem(meta.system), [meta.id, meta.system]);

  const endpoints = useEndpointList();
  // Asked on every engine: switching to an endpoint can then keep the model, or take the one it serves.
  const { lists: endpointLists, setContext } = useEndpointModels((endpoints ?? []).map((e) => e.id));
  const go = useRoute((s) => s.go);

  // Ollama's models are listed beside the endpoints' whenever that picker shows (not on the router or built-in).
  const models = useChatModelNames(meta.backend === 'ollama' || meta.backend === 'endpoint');
  const providers = useRouterProviders(meta.model, meta.backend === 'provider' && isHubRepoId(meta.model));

  const save = async (patch: Parameters<typeof update>[1]) => {
    try {
      await update(meta.id, patch);
      setError(undefined);
    } catch (e) {
      setError(e as AppErrorShape);
    }
  };
  const setParam = <K extends keyof ChatParams>(k: K, v: ChatParams[K]) => {
    const params = { ...meta.params };
    if (v === undefined || (Array.isArray(v) && v.length === 0)) delete params[k];
    else params[k] = v;
    void save({ params });
  };
  const tools = capabilities.includes('tools');
  // A conversation saved before engines and models were matched can still hold an Ollama tag on the router.
  const mismatch = modelMismatch(meta.backend, meta.model);
  const onEndpoint = meta.backend === 'endpoint';
  const endpointGone = onEndpoint && !!endpoints && !endpoints.some((e) => e.id === meta.endpoint);
  const current = onEndpoint
    ? chatModels(endpointLists[meta.endpoint ?? '']).find((m) => m.id === meta.model)
    : undefined;

  /** An endpoint keeps the model when it serves it too, or takes the one it serves (llama-server runs one). */
  const toEndpoint = (e: Endpoint, model?: string) => {
    const served = chatModels(endpointLists[e.id]);
    const keep =
      model ?? (served.some((m) => m.id === meta.model) ? meta.model : served.length === 1 ? served[0].id : '');
    void save({ backend: 'endpoint', endpoint: e.id, model: keep });
  };
  const pick = (value: string) => {
    const { endpoint, model } = parseOption(value);
    const e = endpoint && endpoints?.find((x) => x.id === endpoint);
    if (e) return e.id === meta.endpoint && onEndpoint ? void save({ model }) : toEndpoint(e, model);
    void save(meta.backend === 'ollama' ? { model } : { backend: 'ollama', model });
  };
  const selected = onEndpoint && meta.model ? optionValue(meta.endpoint ?? '', meta.model) : meta.model;
  const listed = !meta.model || (onEndpoint ? !!current : models.includes(meta.model));
  const engines = [
    {
      key: 'ollama',
      label: 'Ollama',
      on: meta.backend === 'ollama',
      choose: () => save({ backend: 'ollama', model: modelOnSwitch('ollama', meta.model) }),
    },
    {
      key: 'local',
      label: 'Built-in (llama.cpp)',
      on: meta.backend === 'local',
      choose: () => save({ backend: 'local', model: modelOnSwitch('local', meta.model) }),
    },
    {
      key: 'provider',
      label: 'HF router',
      on: meta.backend === 'provider',
      choose: () => save({ backend: 'provider', model: modelOnSwitch('provider', meta.model) }),
    },
    ...(endpoints ?? []).map((e) => ({
      key: e.id,
      label: endpointLabel(e),
      on: onEndpoint && meta.endpoint === e.id,
      choose: () => toEndpoint(e),
    })),
  ];

  return (
    <div className="conv-settings" data-testid="conv-settings">
      <div className="conv-settings-row">
        <div className="segmented segmented-wrap" role="radiogroup" aria-label="Backend">
          {engines.map((b) => (
            <button
              key={b.key}
              role="radio"
              aria-checked={b.on}
              className={b.on ? 'on' : ''}
              // The model goes along only if the other engine can use it; otherwise it is chosen there.
              onClick={() => !b.on && void b.choose()}
            >
              {b.label}
            </button>
          ))}
        </div>
        {meta.backend === 'local' ? (
          <LocalModelOptions model={meta.model} onPick={(model) => void save({ model })} />
        ) : meta.backend !== 'provider' ? (
          <select aria-label="Model" value={selected} onChange={(e) => pick(e.target.value)} data-testid="model-select">
            <option value="">Choose a model…</option>
            {!listed && <option value={selected}>{meta.model}</option>}
            {models.length > 0 && (
              <optgroup label="Ollama">
                {models.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </optgroup>
            )}
            {(endpoints ?? []).map((e) => (
              <EndpointOptions key={e.id} endpoint={e} lists={endpointLists[e.id]} />
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
      {current && <EndpointModelInfo model={current} />}
      {current && !current.contextLength && meta.endpoint && (
        <EndpointContextField
          key={`${meta.endpoint} ${current.id}`}
          endpointName={endpoints?.find((e) => e.id === meta.endpoint)?.name ?? 'the server'}
          model={current.id}
          onSave={(n) => setContext(meta.endpoint!, current.id, n)}
        />
      )}
      {endpointGone && (
        <p className="field-error" role="alert" data-testid="endpoint-gone">
          The endpoint this conversation used was removed. Choose another engine above, or add the server again under
          Settings → Endpoints.{' '}
          <button className="btn btn-xs" onClick={() => go('settings')}>
            Open Settings
          </button>
        </p>
      )}
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
