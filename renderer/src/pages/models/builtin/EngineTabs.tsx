import { useEffect } from 'react';
import { tabId, TabList } from '../../../components/Tabs';
import { useRoute } from '../../../store/route';
import './builtin.css';

export type EngineTab = 'builtin' | 'ollama';
const items: readonly EngineTab[] = ['builtin', 'ollama'];
const labels: Record<EngineTab, string> = { builtin: 'Built-in engine', ollama: 'Ollama' };

const ENGINE_TABS = 'engine';
export const enginePanelId = 'engine-panel';
export const engineTabLabel = (tab: EngineTab) => tabId(ENGINE_TABS, tab);

// Each tab's view is its own tree, so the tab list is built anew on a switch; a switch by keyboard puts focus back
// on the new list's selected tab instead of losing it to the page.
let focusAfterSwitch = false;

/** "Built-in engine | Ollama": `#/models/builtin` and `#/models`. */
export function EngineTabs({ value }: { value: EngineTab }) {
  const go = useRoute((s) => s.go);
  useEffect(() => {
    if (!focusAfterSwitch) return;
    focusAfterSwitch = false;
    document.getElementById(engineTabLabel(value))?.focus();
  }, [value]);
  return (
    <TabList
      label="Engine"
      items={items}
      value={value}
      onChange={(v) => {
        if (v === value) return;
        focusAfterSwitch = document.activeElement?.getAttribute('role') === 'tab';
        if (v === 'builtin') go('models', 'builtin');
        else go('models');
      }}
      idPrefix={ENGINE_TABS}
      panelId={enginePanelId}
      className="engine-tabs"
      testid={(v) => `engine-tab-${v}`}
    >
      {(v) => labels[v]}
    </TabList>
  );
}
