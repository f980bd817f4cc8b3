import { useEffect, useState } from 'react';
import type { ChatParams } from '@shared/contract/chat-conversation';
import { useCompare } from '../../store/compare';
import { NumberField } from '../../components/NumberField';

/** The system prompt and parameters every pane gets (a pane's own settings go over them), folded. */
export function SharedSettings({ disabled }: { disabled: boolean }) {
  const { system, params } = useCompare((s) => s.set);
  const edit = useCompare((s) => s.edit);
  const [text, setText] = useState(system);
  useEffect(() => setText(system), [system]);
  const setParam = <K extends keyof ChatParams>(k: K, v: ChatParams[K]) => {
    const next = { ...params, [k]: v };
    if (v === undefined) delete next[k];
    edit({ params: next });
  };
  const count = Object.keys(params).length + (system ? 1 : 0);
  return (
    <details className="cmp-fold cmp-shared">
      <summary>System prompt and parameters{count ? ` · ${count} set` : ''}</summary>
      <fieldset disabled={disabled} className="cmp-shared-body">
        <label className="param param-wide">
          <span>System prompt (every pane)</span>
          <textarea
            rows={2}
            value={text}
            placeholder="Optional instructions for every model"
            onChange={(e) => setText(e.target.value)}
            onBlur={() => text !== system && edit({ system: text })}
          />
        </label>
        <div className="conv-params">
          <NumberField
            label="temperature"
            step={0.1}
            value={params.temperature}
            onChange={(v) => setParam('temperature', v)}
          />
          <NumberField label="top_p" step={0.05} value={params.top_p} onChange={(v) => setParam('top_p', v)} />
          <NumberField label="max tokens" value={params.max_tokens} onChange={(v) => setParam('max_tokens', v)} />
          <NumberField label="context" value={params.num_ctx} onChange={(v) => setParam('num_ctx', v)} />
          <NumberField label="seed" value={params.seed} onChange={(v) => setParam('seed', v)} />
        </div>
      </fieldset>
    </details>
  );
}
