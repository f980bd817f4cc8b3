import { firstCalls } from './first-calls';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './styles/app.css';
import './styles/a11y.css';

const container = document.getElementById('root')!;
// The catalogue landing prerendered into index.html (scripts/first-screen.ts) is on screen where main marked it as
// the first screen: it stays until the app can render that screen itself, so no "Starting…" replaces it; React
// replaces it on its first commit.
const landingShown = container.hasAttribute('inert') && document.documentElement.hasAttribute('data-first-screen');
if (!landingShown) container.replaceChildren();
void (landingShown ? firstCalls : Promise.resolve()).then(() => {
  container.removeAttribute('inert');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
