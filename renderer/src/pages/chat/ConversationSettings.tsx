import type { ConversationMeta } from '@shared/contract/chat';
import { modelMismatch } from '@shared/chat-model';
import { canCallTools, engineChoices, engineUi, usePickerLists } from '../../features/engines/registry';
import { useConversationSave } from './conversation-save';
import { MoreSettings } from './MoreSettings';
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
  const lists = usePickerLists(meta);
  const engine = engineUi(meta.backend);
  const { ConversationPicker: Picker, ConversationNotes: Notes } = engine;
  const chosen = engine.choiceKey(meta);

  // A conversation saved before engines and models were matched can still hold an Ollama tag on the router.
  const mismatch = modelMismatch(meta.backend, meta.model);

  return (
    <div className="conv-settings" data-testid="conv-settings">
      <div className="conv-settings-row">
        <div className="segmented segmented-wrap" role="radiogroup" aria-label="Backend">
          {engineChoices(lists.endpoints ?? []).map((b) => (
            <button
              key={b.key}
              role="radio"
              aria-checked={b.key === chosen}
              className={b.key === chosen ? 'on' : ''}
              // The model goes along only if the other engine can use it; otherwise it is chosen there.
              onClick={() => b.key !== chosen && void save(b.patch(meta.model, lists.endpointLists))}
            >
              {b.label}
            </button>
          ))}
        </div>
        <Picker meta={meta} lists={lists} save={save} />
        <ToolSourcesPicker
          meta={meta}
          canCallTools={canCallTools(meta, capabilities)}
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
      {Notes && <Notes meta={meta} lists={lists} save={save} />}
      {(error || mismatch) && (
        <p className="field-error" role="alert">
          {error?.message ?? mismatch}
        </p>
      )}
      {more && <MoreSettings meta={meta} onClose={onCloseMore} />}
    </div>
  );
}
