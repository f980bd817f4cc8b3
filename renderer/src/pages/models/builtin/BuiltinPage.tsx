import { BuiltinEngine } from './BuiltinEngine';
import { EngineTabs, enginePanelId, engineTabLabel } from './EngineTabs';

/** `#/models/builtin`: Local models with the built-in engine's tab chosen. */
export function BuiltinPage() {
  return (
    <section className="page models-page">
      <header className="page-header">
        <h1>Local models</h1>
      </header>
      <EngineTabs value="builtin" />
      <div role="tabpanel" id={enginePanelId} aria-labelledby={engineTabLabel('builtin')}>
        <BuiltinEngine />
      </div>
    </section>
  );
}
