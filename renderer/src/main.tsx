import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './api';
import { App } from './app/App';
import { useCatalogue } from './store/catalogue';
import { useRoute } from './store/route';
import './styles/app.css';
import './styles/a11y.css';

// The catalogue is the first screen: ask main for it before React mounts, not after its first effects.
if (useRoute.getState().page === 'catalogue') void useCatalogue.getState().load();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
