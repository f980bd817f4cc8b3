import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { CatalogueData } from '@shared/contract/catalogue';
import type { SettingsView } from '@shared/contract/settings';
import { App } from './app/App';
import { catalogueView, useCatalogue } from './store/catalogue';
import { useSettings } from './store/settings';

/**
 * Build time only (scripts/first-screen.ts, in jsdom): the catalogue's landing exactly as the app renders it for a
 * returning user before main has answered anything. index.html carries it, so the first paint shows the catalogue
 * while the JS loads; the app replaces it with its own render (the same markup) once settings and catalogue are in.
 */
export function renderFirstScreen(data: CatalogueData, settings: SettingsView): string {
  useCatalogue.setState({ view: catalogueView(data) });
  useSettings.setState({ view: settings });
  const el = document.createElement('div');
  const root = createRoot(el);
  flushSync(() => root.render(<App />));
  const html = el.innerHTML;
  root.unmount();
  return html;
}
