import { useEffect, useRef, useState } from 'react';
import type { ConversationMeta, ToolSource } from '@shared/contract/chat-conversation';
import { useToolSources } from '../../hooks/chat';
import { hrefFor } from '../../store/route';

const STATE_TEXT: Record<ToolSource['state'], string> = {
  ready: 'ready',
  stopped: 'starts when needed',
  starting: 'starting',
  restarting: 'restarting',
  error: 'failed',
  disabled: 'disabled in mcp.json',
};

/**
 * "Tools": which sources this conversation offers the model (the built-in web tools and each MCP server), and
 * the tools allowed "always" here, which can be forgotten. Sources an imported file had on are shown off, so
 * turning them on is the user's choice.
 */
export function ToolSourcesPicker({
  meta,
  canCallTools,
  onSave,
}: {
  meta: ConversationMeta;
  /** False for an Ollama model without the `tools` capability. */
  canCallTools: boolean;
  onSave(patch: Partial<Pick<ConversationMeta, 'toolSources' | 'toolsAllowed'>>): void;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const { sources, error, reload: load } = useToolSources(open);

  // The boxes answer at once; the saved conversation catches up (and wins) when its meta arrives.
  const [chosen, setChosen] = useState(meta.toolSources);
  useEffect(() => setChosen(meta.toolSources), [meta.toolSources]);
  const on = new Set(chosen);
  const toggle = (id: string, checked: boolean) => {
    const next = checked ? [...chosen.filter((s) => s !== id), id] : chosen.filter((s) => s !== id);
    setChosen(next);
    onSave({ toolSources: next });
  };
  // Sources that were turned on but are gone from mcp.json stay listed, so they can be turned off.
  const missing = chosen.filter((id) => sources && !sources.some((s) => s.id === id));
  // What an imported file had on came in off: said beside each until the user turns it on.
  const imported = new Set(meta.importedToolSources);
  const importedElsewhere = [...imported].filter((id) => sources && !sources.some((s) => s.id === id));

  return (
    <details
      className="tool-picker"
      ref={ref}
      onToggle={() => {
        setOpen(!!ref.current?.open);
        if (ref.current?.open) load();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && ref.current?.open) {
          ref.current.open = false;
          ref.current.querySelector('summary')?.focus();
        }
      }}
    >
      <summary className="btn btn-ghost btn-sm" data-testid="tool-picker">
        Tools{chosen.length ? ` · ${chosen.length}` : ''}
      </summary>
      <div className="tool-picker-panel" role="group" aria-label="Tool sources of this conversation">
        {!canCallTools && (
          <p className="hint" role="note">
            {meta.model} cannot call tools (Ollama does not list the tools capability): nothing is offered to it.
          </p>
        )}
        {error && (
          <p className="hint error" role="alert">
            Could not list the tool sources: {error.message}{' '}
            <button className="btn btn-ghost btn-xs" onClick={load}>
              Retry
            </button>
          </p>
        )}
        {!sources && !error && <p className="hint">Loading tool sources…</p>}
        {sources?.map((s) => (
          <label key={s.id} className="tool-source" data-testid={`tool-source-${s.id}`}>
            <input type="checkbox" checked={on.has(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} />
            <span className="tool-source-text">
              <span className="tool-source-name">{s.label}</span>
              <span className="hint">
                {s.kind === 'mcp' ? `${STATE_TEXT[s.state]} · ` : ''}
                {s.tools.length ? s.tools.map((t) => t.name).join(', ') : 'tools listed once it runs'}
              </span>
              {s.message && <span className="hint warn">{s.message}</span>}
              {imported.has(s.id) && !on.has(s.id) && <span className="hint warn">off, from the imported file</span>}
            </span>
          </label>
        ))}
        {missing.map((id) => (
          <label key={id} className="tool-source">
            <input type="checkbox" checked onChange={() => toggle(id, false)} />
            <span className="tool-source-text">
              <span className="tool-source-name">{id}</span>
              <span className="hint warn">no longer in mcp.json</span>
            </span>
          </label>
        ))}
        {importedElsewhere.length > 0 && (
          <p className="hint warn">Off, from the imported file, and not in mcp.json: {importedElsewhere.join(', ')}</p>
        )}
        {sources && sources.length === 1 && (
          <p className="hint">
            No MCP servers yet. <a href={hrefFor('tools')}>Add one in Tools</a>.
          </p>
        )}
        {meta.toolsAllowed.length > 0 && (
          <p className="hint" data-testid="tools-allowed">
            Run without asking here: {meta.toolsAllowed.join(', ')}{' '}
            <button className="btn btn-ghost btn-xs" onClick={() => onSave({ toolsAllowed: [] })}>
              Ask again
            </button>
          </p>
        )}
      </div>
    </details>
  );
}
