import type { Endpoint, EndpointModel } from '@shared/contract/endpoints';
import type { EndpointModels } from '../../hooks/endpoints';
import { endpointLabel } from '../../lib/endpoint-presets';
import { catalogueHref } from '../catalogue/links';

const fmt = (n: number) => n.toLocaleString();

/** An endpoint's models a chat can use: an embedding model (LM Studio lists them beside the rest) cannot answer. */
export const chatModels = (lists: EndpointModels | undefined): EndpointModel[] =>
  lists && 'models' in lists ? lists.models.filter((m) => m.type !== 'embeddings') : [];

/**
 * The model picker's option values: an Ollama model by its name, an endpoint's as `<endpoint id> <model id>` (no
 * Ollama name holds a space), so one select lists every local engine's models, grouped by engine.
 */
export const optionValue = (endpoint: string, model: string) => `${endpoint} ${model}`;
export function parseOption(value: string): { endpoint?: string; model: string } {
  const m = /^(e_[a-z0-9]+) ([^]+)$/.exec(value);
  return m ? { endpoint: m[1], model: m[2] } : { model: value };
}

/** One endpoint's group in the model picker: its chat models, or why there are none. */
export function EndpointOptions({ endpoint, lists }: { endpoint: Endpoint; lists: EndpointModels | undefined }) {
  const models = chatModels(lists);
  return (
    <optgroup label={endpointLabel(endpoint)}>
      {!lists ? (
        <option disabled value={`${endpoint.id} …`}>
          Listing models…
        </option>
      ) : 'error' in lists ? (
        <option disabled value={`${endpoint.id} !`}>
          Not answering: {lists.error.message}
        </option>
      ) : models.length === 0 ? (
        <option disabled value={`${endpoint.id} -`}>
          Serves no chat model
        </option>
      ) : (
        models.map((m) => (
          <option key={m.id} value={optionValue(endpoint.id, m.id)}>
            {m.id}
            {m.contextLength ? ` (${fmt(m.contextLength)}-token context)` : ''}
            {m.loaded === false ? ' · not loaded' : ''}
          </option>
        ))
      )}
    </optgroup>
  );
}

/** What the endpoint says of the chosen model: the context it runs with, and its Hub page when the id names one. */
export function EndpointModelInfo({ model }: { model: EndpointModel }) {
  if (!model.contextLength && !model.hubRepo) return null;
  return (
    <p className="help endpoint-model-info" data-testid="endpoint-model-info">
      {model.contextLength && (
        <>
          Context: {fmt(model.contextLength)} tokens
          {model.trainedContext && model.trainedContext !== model.contextLength
            ? ` (the model was trained with ${fmt(model.trainedContext)})`
            : ''}
          .{' '}
        </>
      )}
      {model.hubRepo && (
        <a href={catalogueHref('model', model.hubRepo)}>{model.hubRepo} on the Hub: its page and whether it fits</a>
      )}
    </p>
  );
}
