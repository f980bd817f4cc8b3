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
  // A select shows only its chosen option (the landing's have a fixed width): the others would be hundreds of
  // elements for the first paint to parse and style for nothing (the catalogue's filters list every task and library).
  const landing = el.cloneNode(true) as HTMLElement;
  for (const select of landing.querySelectorAll('select')) {
    const chosen = select.selectedOptions[0];
    for (const option of [...select.options]) if (option !== chosen) option.remove();
    chosen?.setAttribute('selected', '');
  }
  const html = landing.innerHTML;
  root.unmount();
  return html;
}
