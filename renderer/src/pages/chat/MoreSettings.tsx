import { useEffect, useState } from 'react';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { NumberField } from '../../components/NumberField';
import { engineUi } from '../../features/engines/registry';
import { useConversationSave } from './conversation-save';
import { ChatBases } from './documents/KnowledgeBases';

export const MORE_SETTINGS_ID = 'conv-more-settings';

/**
 * "More settings", folded under the chat header: the system prompt and the sampling parameters (with the engine's
 * own), in a panel over the messages that scrolls in its own box (they keep their height on a small window). Escape
 * folds it again.
 */
export function MoreSettings({ meta, onClose }: { meta: ConversationMeta; onClose?(): void }) {
  const { save, setParam, error } = useConversationSave(meta);
  const [system, setSystem] = useState(meta.system);
  useEffect(() => setSystem(meta.system), [meta.id, meta.system]);
  // The engine's own fields (Ollama's num_ctx) sit among the sampling parameters.
  const EngineSettings = engineUi(meta.backend).Settings;

  return (
    <div
      className="conv-more"
      id={MORE_SETTINGS_ID}
      data-testid="more-settings"
      role="group"
      aria-label="More settings"
      onKeyDown={(e) => e.key === 'Escape' && onClose?.()}
    >
      <label className="param param-wide">
        <span>System prompt</span>
        <textarea
          rows={2}
          value={system}
          placeholder="Optional instructions for the model"
          onChange={(e) => setSystem(e.target.value)}
          onBlur={() => system !== meta.system && void save({ system })}
        />
      </label>
      <div className="conv-params">
        <NumberField
          label="temperature"
          step={0.1}
          value={meta.params.temperature}
          onChange={(v) => setParam('temperature', v)}
        />
        <NumberField label="top_p" step={0.05} value={meta.params.top_p} onChange={(v) => setParam('top_p', v)} />
        <NumberField label="max tokens" value={meta.params.max_tokens} onChange={(v) => setParam('max_tokens', v)} />
        {EngineSettings && <EngineSettings meta={meta} setParam={setParam} />}
        <NumberField label="seed" value={meta.params.seed} onChange={(v) => setParam('seed', v)} />
        <label className="param">
          <span>stop (comma separated)</span>
          <input
            defaultValue={(meta.params.stop ?? []).join(', ')}
            key={meta.id}
            onBlur={(e) =>
              setParam(
                'stop',
                e.target.value
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
              )
            }
          />
        </label>
      </div>
      <ChatBases value={meta.bases} onChange={(bases) => void save({ bases })} />
      {error && (
        <p className="field-error" role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}
