import { useLocalLibrary } from '../../../hooks/local';
import { oneChoice } from '../one-choice';
import type { ConversationPartProps, EngineUi, PanePickerProps } from '../types';
import { chatReady, LocalModelOptions } from './LocalModelOptions';

/** A model on disk it can chat with; unknown until the library has been read. */
function useLocalReady(): boolean | undefined {
  const library = useLocalLibrary();
  if (chatReady(library.data?.models).length) return true;
  return !library.data && library.state === 'loading' ? undefined : false;
}

function LocalConversationModel({ meta, save }: ConversationPartProps) {
  return <LocalModelOptions model={meta.model} onPick={(model) => void save({ model })} />;
}

function LocalPaneModel({ pane, onChange }: PanePickerProps) {
  return <LocalModelOptions model={pane.model} onPick={(model) => onChange({ model })} />;
}

/** The built-in llama.cpp engine: GGUF files on disk, by local model id. */
export const local: EngineUi = {
  ...oneChoice('local', 'Built-in (llama.cpp)'),
  name: () => ({ name: 'Built-in engine', where: 'Replies come from llama.cpp inside HubDesk.' }),
  // A local model by its file name, not its whole path or id.
  shownModel: (model) => (model.split(/[\\/]/).at(-1) ?? model).replace(/\.gguf$/i, ''),
  ConversationPicker: LocalConversationModel,
  PanePicker: LocalPaneModel,
  useReady: useLocalReady,
};
