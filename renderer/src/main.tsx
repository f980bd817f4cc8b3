import { firstCalls } from './first-calls';
import './styles/app.css';
import './styles/a11y.css';

// index.html loads this script after its first paint where its prerendered catalogue landing is on screen
// (shared/first-paint.ts). The landing stays until the app can render that screen itself (no "Starting…" replaces
// it); React replaces it on its first commit.
const container = document.getElementById('root')!;
const landingShown = container.hasAttribute('inert') && document.documentElement.hasAttribute('data-first-screen');
if (!landingShown) container.replaceChildren();
// The page may still be parsing when this runs (the script is inserted, not parsed in place): React takes the root
// only once the landing's markup is all in.
const parsed =
  document.readyState === 'loading'
    ? new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
    : undefined;
void Promise.all([import('./mount'), parsed, landingShown ? firstCalls : undefined]).then(([{ mount }]) => {
  container.removeAttribute('inert');
  mount(container);
});
