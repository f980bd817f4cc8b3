import type { Endpoint } from '@shared/contract/endpoints';
import { useEndpointList, useEndpointModels } from '../../../hooks/endpoints';
import { endpointLabel } from '../../../lib/endpoint-presets';
import { useRoute } from '../../../store/route';
import { ServerModelSelect } from '../ServerModelSelect';
import type { ConversationPartProps, EngineUi, PanePickerProps } from '../types';
import { EndpointContextField } from './EndpointContextField';
import {
  EndpointModelInfo,
  EndpointOptions,
  optionValue,
  parseOption,
  servedModel,
  toEndpoint,
} from './EndpointModelOptions';

/**
 * Under the chat header on an endpoint: what the server says of the chosen model (its context, its Hub page), the
 * context length asked when it does not say, or that the endpoint was removed.
 */
function EndpointNotes({ meta, lists }: ConversationPartProps) {
  const go = useRoute((s) => s.go);
  const { endpoints, endpointLists, setContext } = lists;
  const gone = !!endpoints && !endpoints.some((e) => e.id === meta.endpoint);
  const current = servedModel(meta, endpointLists);
  return (
    <>
      {current && <EndpointModelInfo model={current} />}
      {current && !current.contextLength && meta.endpoint && (
        <EndpointContextField
          key={`${meta.endpoint} ${current.id}`}
          endpointName={endpoints?.find((e) => e.id === meta.endpoint)?.name ?? 'the server'}
          model={current.id}
          onSave={(n) => setContext(meta.endpoint!, current.id, n)}
        />
      )}
      {gone && (
        <p className="field-error" role="alert" data-testid="endpoint-gone">
          The endpoint this conversation used was removed. Choose another engine here, or add the server again under
          Settings → Endpoints.{' '}
          <button className="btn btn-xs" onClick={() => go('settings')}>
            Open Settings
          </button>
        </p>
      )}
    </>
  );
}

/** A Compare pane's model on its endpoint: the models the server lists. */
function EndpointModel({ endpoint, pane, onChange }: Omit<PanePickerProps, 'endpoints'> & { endpoint: Endpoint }) {
  const { lists } = useEndpointModels([endpoint.id]);
  const value = pane.model ? optionValue(endpoint.id, pane.model) : '';
  return (
    <select aria-label="Model" value={value} onChange={(e) => onChange({ model: parseOption(e.target.value).model })}>
      <option value="">Choose a model…</option>
      <EndpointOptions endpoint={endpoint} lists={lists[endpoint.id]} />
    </select>
  );
}

function EndpointPaneModel({ pane, endpoints, onChange }: PanePickerProps) {
  const endpoint = endpoints.find((e) => e.id === pane.endpoint);
  if (endpoint) return <EndpointModel endpoint={endpoint} pane={pane} onChange={onChange} />;
  return (
    <span className="field-error" role="alert">
      This endpoint was removed: choose another engine.
    </span>
  );
}

/** An endpoint added in Settings; unknown until the list has been read. */
function useEndpointReady(): boolean | undefined {
  const endpoints = useEndpointList();
  return endpoints ? endpoints.length > 0 : undefined;
}

/** The user's OpenAI-compatible servers (Settings → Endpoints): one entry each in the engine choice. */
export const endpoint: EngineUi = {
  choices: (endpoints) =>
    endpoints.map((e) => ({
      key: e.id,
      label: endpointLabel(e),
      patch: (model, lists) => toEndpoint(e, model, lists),
    })),
  choiceKey: (on) => on.endpoint ?? '',
  name: (meta, endpoints) => {
    const e = endpoints?.find((x) => x.id === meta.endpoint);
    if (!e)
      return {
        name: endpoints ? 'removed endpoint' : 'endpoint',
        where: 'Replies come from an OpenAI-compatible server.',
      };
    return {
      name: endpointLabel(e),
      where: `Replies come from ${e.name}, the OpenAI-compatible server at ${e.baseUrl}.`,
    };
  },
  // Ollama's models are listed beside the endpoints' in the one picker of this computer's servers.
  asks: { ollamaModels: true },
  ConversationPicker: ServerModelSelect,
  ConversationNotes: EndpointNotes,
  PanePicker: EndpointPaneModel,
  useReady: useEndpointReady,
};
