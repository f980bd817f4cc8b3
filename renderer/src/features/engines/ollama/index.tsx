import { NumberField } from '../../../components/NumberField';
import { useChatModelNames } from '../../../hooks/chat';
import { oneChoice } from '../one-choice';
import { ServerModelSelect } from '../ServerModelSelect';
import type { EngineSettingsProps, EngineUi, PanePickerProps } from '../types';
import { OllamaChatWithModel } from './ChatWithModel';

/** A Compare pane's Ollama model: its chat models, and the pane's own if Ollama no longer lists it. */
function OllamaPaneModel({ pane, onChange }: PanePickerProps) {
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

/** Ollama's context length: it loads a model with its own default unless told (other engines size it themselves). */
function OllamaSettings({ meta, setParam }: EngineSettingsProps) {
  return <NumberField label="num_ctx" value={meta.params.num_ctx} onChange={(v) => setParam('num_ctx', v)} />;
}

/** The Ollama server set in Settings: its models by name and tag, listed beside the endpoints' in the chat header. */
export const ollama: EngineUi = {
  ...oneChoice('ollama', 'Ollama'),
  name: () => ({ name: 'Ollama', where: 'Replies come from your local Ollama server.' }),
  asks: { ollamaModels: true },
  ConversationPicker: ServerModelSelect,
  PanePicker: OllamaPaneModel,
  Settings: OllamaSettings,
  // Ollama says which models take tools (`show` capabilities); not yet known (no model, not answered): offered.
  canCallTools: (meta, capabilities) => !meta.model || !capabilities.length || capabilities.includes('tools'),
  down: (status) =>
    status.ollama?.reachable === false
      ? 'Ollama is not answering on this computer: start it, or let the built-in engine reply.'
      : undefined,
  // A chat model pulled (Ollama not running lists none).
  useReady: () => useChatModelNames(true).length > 0,
  ChatWithModel: OllamaChatWithModel,
};
