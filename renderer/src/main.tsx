import { firstCalls } from './first-calls';
import './styles/app.css';
import './styles/a11y.css';

const container = document.getElementById('root')!;
// The catalogue landing prerendered into index.html (scripts/first-screen.ts) is on screen where main marked it as
// the first screen: React DOM and the app (the bulk of the start-up script) are evaluated after it is painted, and
// it stays until the app can render that screen itself (no "Starting…" replaces it); React replaces it on its first
// commit.
const landingShown = container.hasAttribute('inert') && document.documentElement.hasAttribute('data-first-screen');
if (!landingShown) container.replaceChildren();
// After the next frame (a task queued from it runs once it is painted), or 100 ms where frames do not come (a
// window not shown yet).
const painted = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
const app = (landingShown ? painted() : Promise.resolve()).then(() => import('./mount'));
void Promise.all([app, landingShown ? firstCalls : undefined]).then(([{ mount }]) => {
  container.removeAttribute('inert');
  mount(container);
});
