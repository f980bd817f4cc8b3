import { engineFacts } from '../../lib/engines';
import { EndpointOptions, optionValue, parseOption, servedModel, toEndpoint } from './endpoint/EndpointModelOptions';
import type { ConversationPartProps } from './types';

/**
 * The chat header's model picker on Ollama and on an endpoint: one select of the models of every server on this
 * computer, Ollama's and each endpoint's, grouped by server. Picking another server's model moves the conversation
 * there.
 */
export function ServerModelSelect({ meta, lists, save }: ConversationPartProps) {
  const { endpoints, endpointLists, ollamaModels: models } = lists;
  const onEndpoint = engineFacts[meta.backend].onEndpoint;
  const current = onEndpoint ? servedModel(meta, endpointLists) : undefined;
  const pick = (value: string) => {
    const { endpoint, model } = parseOption(value);
    const e = endpoint && endpoints?.find((x) => x.id === endpoint);
    if (e)
      return void save(
        e.id === meta.endpoint && onEndpoint ? { model } : toEndpoint(e, meta.model, endpointLists, model),
      );
    void save(onEndpoint ? { backend: 'ollama', model } : { model });
  };
  const selected = onEndpoint && meta.model ? optionValue(meta.endpoint ?? '', meta.model) : meta.model;
  const listed = !meta.model || (onEndpoint ? !!current : models.includes(meta.model));
  return (
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
  );
}
