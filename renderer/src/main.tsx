import './zod-jitless';
import { firstCalls } from './first-calls';
import './styles/app.css';
import './styles/a11y.css';

// index.html loads this script after its first paint where its prerendered catalogue landing is on screen
// (shared/first-paint.ts). The landing stays until the app can render that screen itself (no "Starting…" replaces
// it); React replaces it on its first commit. Its links work meanwhile: a click changes the address, and the app
// opens that page when it mounts.
const container = document.getElementById('root')!;
const landingShown =
  container.hasAttribute('data-landing') && document.documentElement.hasAttribute('data-first-screen');
if (!landingShown) container.replaceChildren();
// The page may still be parsing when this runs (the script is inserted, not parsed in place): React takes the root
// only once the landing's markup is all in.
const parsed =
  document.readyState === 'loading'
    ? new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
    : undefined;
// The start-up list (app/startup.ts) runs as soon as the app's code is in, beside the first calls, not after them.
const app = import('./mount');
void app.then(({ startUp }) => startUp());
void Promise.all([app, parsed, landingShown ? firstCalls : undefined]).then(([{ mount }]) => {
  // A link of the landing that has the focus (tabbed to, or clicked) keeps it in the app: the same link, rendered.
  const focused = document.activeElement;
  const href =
    focused instanceof HTMLAnchorElement && container.contains(focused) ? focused.getAttribute('href') : null;
  container.removeAttribute('data-landing');
  mount(container, href);
});
