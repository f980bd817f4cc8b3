import { isHubRepoId, routerKey } from '@shared/chat-model';
import { useSettings } from '../../store/settings';
import { oneChoice } from './one-choice';
import type { ConversationPartProps, EngineUi, PanePickerProps } from './types';

/** The chat header's model on the router: a Hub model id, and the inference provider (auto, or one that serves it). */
function ProviderConversationModel({ meta, lists, save }: ConversationPartProps) {
  return (
    <>
      <input
        aria-label="Model id"
        className="model-input"
        defaultValue={meta.model}
        key={meta.id + meta.backend}
        placeholder="owner/model, e.g. meta-llama/Llama-3.1-8B-Instruct"
        onBlur={(e) => e.target.value.trim() !== meta.model && void save({ model: e.target.value.trim() })}
      />
      <select aria-label="Provider" value={meta.provider} onChange={(e) => void save({ provider: e.target.value })}>
        <option value="auto">auto</option>
        {[...new Set([...lists.providers, ...(meta.provider !== 'auto' ? [meta.provider] : [])])].map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </>
  );
}

/** A Hugging Face token the router will get; unknown until the settings are read. */
function useProviderReady(): boolean | undefined {
  const view = useSettings((s) => s.view);
  return view ? routerKey(view) === 'ready' : undefined;
}

function ProviderPaneModel({ pane, onChange }: PanePickerProps) {
  return (
    <input
      aria-label="Model id"
      placeholder="owner/model"
      defaultValue={pane.model}
      onBlur={(e) => onChange({ model: e.target.value.trim() })}
    />
  );
}

/** The Hugging Face inference router: hosted models by Hub id, through a provider (with the user's token). */
export const provider: EngineUi = {
  ...oneChoice('provider', 'HF router'),
  name: (meta) => ({
    name: `HF router · ${meta.provider}`,
    where: 'Replies come from a hosted model through the Hugging Face inference router.',
  }),
  // The providers are the Hub's answer for a model id (an Ollama tag left from another engine has none).
  asks: { routerProviders: isHubRepoId },
  ConversationPicker: ProviderConversationModel,
  PanePicker: ProviderPaneModel,
  useReady: useProviderReady,
};
