import type { ConversationMeta } from '@shared/contract/chat';
import type { Endpoint } from '@shared/contract/endpoints';
import { isHubRepoId, modelMismatch, modelOnSwitch } from '@shared/chat-model';
import { useChatModelNames, useRouterProviders } from '../../hooks/chat';
import { useEndpointList, useEndpointModels } from '../../hooks/endpoints';
import { endpointLabel } from '../../lib/endpoint-presets';
import { useRoute } from '../../store/route';
import { useConversationSave } from './conversation-save';
import { EndpointContextField } from './EndpointContextField';
import { LocalModelOptions } from './LocalModelOptions';
import { MoreSettings } from './MoreSettings';
import { chatModels, EndpointModelInfo, EndpointOptions, optionValue, parseOption } from './EndpointModelOptions';
import { ToolSourcesPicker } from './ToolSourcesPicker';

/**
 * The chat header's controls, always in view: the engine and its model (and router provider), Tools with the
 * number of sources on, and Think; each change is saved at once. The rest folds under "More settings".
 */
export function ConversationSettings({
  meta,
  capabilities,
  more = false,
  onCloseMore,
}: {
  meta: ConversationMeta;
  capabilities: string[];
  /** "More settings" unfolded (its toggle is in the title row), and how Escape folds it. */
  more?: boolean;
  onCloseMore?(): void;
}) {
  const { save, setParam, error } = useConversationSave(meta);

  const endpoints = useEndpointList();
  // Asked on every engine: switching to an endpoint can then keep the model, or take the one it serves.
  const { lists: endpointLists, setContext } = useEndpointModels((endpoints ?? []).map((e) => e.id));
  const go = useRoute((s) => s.go);

  // Ollama's models are listed beside the endpoints' whenever that picker shows (not on the router or built-in).
  const models = useChatModelNames(meta.backend === 'ollama' || meta.backend === 'endpoint');
  const providers = useRouterProviders(meta.model, meta.backend === 'provider' && isHubRepoId(meta.model));

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
          <select
            aria-label="Model"
            title={meta.model || undefined}
            value={selected}
            onChange={(e) => pick(e.target.value)}
            data-testid="model-select"
          >
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
          The endpoint this conversation used was removed. Choose another engine here, or add the server again under
          Settings → Endpoints.{' '}
          <button className="btn btn-xs" onClick={() => go('settings')}>
            Open Settings
          </button>
        </p>
      )}
      {(error || mismatch) && (
        <p className="field-error" role="alert">
          {error?.message ?? mismatch}
        </p>
      )}
      {more && <MoreSettings meta={meta} onClose={onCloseMore} />}
    </div>
  );
}
