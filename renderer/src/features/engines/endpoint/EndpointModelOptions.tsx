import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { Endpoint, EndpointModel } from '@shared/contract/endpoints';
import type { EndpointModels } from '../../../hooks/endpoints';
import { endpointLabel } from '../../../lib/endpoint-presets';
import { catalogueHref } from '../../../store/route';

const fmt = (n: number) => n.toLocaleString();

/** An endpoint's models a chat can use: an embedding model (LM Studio lists them beside the rest) cannot answer. */
const chatModels = (lists: EndpointModels | undefined): EndpointModel[] =>
  lists && 'models' in lists ? lists.models.filter((m) => m.type !== 'embeddings') : [];

/** The conversation's model among those its endpoint serves (with what the server says of it), when listed. */
export const servedModel = (
  meta: Pick<ConversationMeta, 'endpoint' | 'model'>,
  lists: Record<string, EndpointModels>,
): EndpointModel | undefined => chatModels(lists[meta.endpoint ?? '']).find((m) => m.id === meta.model);

/**
 * A move to endpoint `e`: with `chosen`, that model; else it keeps `model` when it serves it too, or takes the one it
 * serves (llama-server runs one). Without its list, the model is chosen anew there.
 */
export function toEndpoint(e: Endpoint, model: string, lists?: Record<string, EndpointModels>, chosen?: string) {
  const served = chatModels(lists?.[e.id]);
  const keep = chosen ?? (served.some((m) => m.id === model) ? model : served.length === 1 ? served[0].id : '');
  return { backend: 'endpoint' as const, endpoint: e.id, model: keep };
}

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
