import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './api';
import { App } from './app/App';
import { useCatalogue } from './store/catalogue';
import { useRoute } from './store/route';
import { useSettings } from './store/settings';
import './styles/app.css';
import './styles/a11y.css';

// Settings decide the first screen, and the catalogue is that screen: ask main for both before React mounts, not
// after its first render and effects.
void useSettings.getState().load();
if (useRoute.getState().page === 'catalogue') void useCatalogue.getState().load();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
