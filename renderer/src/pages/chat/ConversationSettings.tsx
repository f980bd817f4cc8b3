import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { modelMismatch } from '@shared/chat-model';
import { RadioGroup } from '../../components/RadioGroup';
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
  const choices = engineChoices(lists.endpoints ?? []);

  // A conversation saved before engines and models were matched can still hold an Ollama tag on the router.
  const mismatch = modelMismatch(meta.backend, meta.model);

  return (
    <div className="conv-settings" data-testid="conv-settings">
      <div className="conv-settings-row">
        {/* One Tab stop; the arrow keys move between engines and choose one (a WAI-ARIA radio group). */}
        <RadioGroup
          label="Backend"
          className="segmented segmented-wrap"
          items={choices.map((b) => b.key)}
          value={chosen}
          onChange={(key) => {
            const b = choices.find((c) => c.key === key);
            // The model goes along only if the other engine can use it; otherwise it is chosen there.
            if (b && key !== chosen) void save(b.patch(meta.model, lists.endpointLists));
          }}
        >
          {(key) => choices.find((c) => c.key === key)?.label}
        </RadioGroup>
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
