import type { ComparePaneInput } from '@shared/contract/compare';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { Endpoint } from '@shared/contract/endpoints';
import { NumberField } from '../../components/NumberField';
import { engineChoices, engineUi } from '../../features/engines/registry';

/**
 * One pane's setup: its engine, its model, and its own settings (over the shared ones), folded. The same model may
 * be in two panes, e.g. at two temperatures.
 */
export function PaneEditor({
  index,
  pane,
  endpoints,
  canRemove,
  disabled,
  onChange,
  onRemove,
}: {
  index: number;
  pane: ComparePaneInput;
  endpoints: Endpoint[];
  canRemove: boolean;
  disabled: boolean;
  onChange(p: Partial<ComparePaneInput>): void;
  onRemove(): void;
}) {
  const engine = engineUi(pane.backend);
  const Picker = engine.PanePicker;
  const choices = engineChoices(endpoints);
  const params: ChatParams = pane.params ?? {};
  const setParam = <K extends keyof ChatParams>(k: K, v: ChatParams[K]) => {
    const next = { ...params, [k]: v };
    if (v === undefined) delete next[k];
    onChange({ params: next });
  };
  // The engine select's value is a choice's key: the backend, or an endpoint's id. An endpoint's model is chosen anew.
  const chooseEngine = (v: string) => {
    const to = choices.find((c) => c.key === v)?.patch(pane.model);
    if (to) onChange({ backend: to.backend, endpoint: to.endpoint, model: to.model });
  };
  const own = Object.keys(params).length;
  return (
    <fieldset className="cmp-pane-editor" disabled={disabled} data-testid="pane-editor">
      <legend>Pane {index + 1}</legend>
      <div className="cmp-pane-pick">
        <select aria-label="Engine" value={engine.choiceKey(pane)} onChange={(e) => chooseEngine(e.target.value)}>
          {choices.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
        <Picker pane={pane} endpoints={endpoints} onChange={onChange} />
      </div>
      <details className="cmp-fold">
        <summary>Pane settings{own ? ` · ${own} set` : ''}</summary>
        <div className="conv-params">
          <NumberField
            label={`temperature (pane ${index + 1})`}
            step={0.1}
            value={params.temperature}
            onChange={(v) => setParam('temperature', v)}
          />
          <NumberField
            label={`context (pane ${index + 1})`}
            placeholder="shared"
            value={params.num_ctx}
            onChange={(v) => setParam('num_ctx', v)}
          />
        </div>
      </details>
      {canRemove && (
        <button className="btn btn-ghost btn-xs cmp-remove" onClick={onRemove} aria-label={`Remove pane ${index + 1}`}>
          Remove
        </button>
      )}
    </fieldset>
  );
}
