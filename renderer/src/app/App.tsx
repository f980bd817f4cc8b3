import { Suspense, useEffect } from 'react';
import { Icon, type IconName } from '../components/Icon';
import { SkipLink } from '../components/SkipLink';
import { Logo } from '../components/Logo';
import { Loading } from '../components/States';
import { PageBoundary } from '../components/PageBoundary';
import { preloadWhenIdle, startIdlePreload } from '../lib/idle-preload';
import { lazyComponent } from '../lib/lazy-component';
import { CataloguePage } from '../pages/catalogue/CataloguePage';
import { FirstRun } from '../pages/first-run/FirstRun';
import { hrefFor, prepareRoutes, useRoute, type Page } from '../store/route';
import { resolvedTheme, useSettings } from '../store/settings';
import { StatusBar } from './StatusBar';
import { useShortcuts } from './shortcuts';

// The catalogue is the first screen; the other pages load when first opened, keeping start-up small.
const pages = {
  models: lazyComponent(
    () => import('../pages/models/ModelsPage'),
    (m) => m.ModelsPage,
  ),
  chat: lazyComponent(
    () => import('../pages/chat/ChatPage'),
    (m) => m.ChatPage,
  ),
  tools: lazyComponent(
    () => import('../pages/tools/ToolsPage'),
    (m) => m.ToolsPage,
  ),
  settings: lazyComponent(
    () => import('../pages/settings/SettingsPage'),
    (m) => m.SettingsPage,
  ),
};

// Going to a page waits for its code (up to PREPARE_MS), so the current page stays until the next one can render
// without a Suspense fallback (see lazyComponent). The page the app opens on starts loading now, beside the first
// calls to main.
const lazyPage = (page: Page) => (Object.hasOwn(pages, page) ? pages[page as keyof typeof pages] : undefined);
prepareRoutes(({ page }) => lazyPage(page)?.preload());
void lazyPage(useRoute.getState().page)
  ?.preload()
  .catch(() => undefined); // the page's own render tries again and shows the error
// The others load once the app is idle, the likeliest first (after a model page: see CataloguePage).
preloadWhenIdle(() => pages.chat.preload().then((m) => m.warmChat()));
for (const p of [pages.models, pages.settings, pages.tools]) preloadWhenIdle(p.preload);

const nav: { page: Page; label: string; icon: IconName }[] = [
  { page: 'catalogue', label: 'Catalogue', icon: 'catalogue' },
  { page: 'models', label: 'Local models', icon: 'models' },
  { page: 'chat', label: 'Chat', icon: 'chat' },
  { page: 'tools', label: 'Tools', icon: 'tools' },
  { page: 'settings', label: 'Settings', icon: 'settings' },
];

function useTheme() {
  const theme = useSettings((s) => s.view?.values.theme);
  useEffect(() => {
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => (document.documentElement.dataset.theme = resolvedTheme(theme, mq.matches));
    apply();
    mq.addEventListener('change', apply);
    return () => mq.removeEventListener('change', apply);
  }, [theme]);
}

export function App() {
  const page = useRoute((s) => s.page);
  useTheme();
  useShortcuts();
  useEffect(() => startIdlePreload(), []);
  // Until the user chooses how HubDesk may use the Hub, the first-run screen stands alone (no page asks anything).
  const access = useSettings((s) => s.view?.values.hubAccess);
  const settingsError = useSettings((s) => s.error);
  if (access === 'ask') return <FirstRun />;
  if (!access && !settingsError) return <Loading label="Starting…" />;

  return (
    <div className="app">
      <SkipLink target="main-content" testid="skip-main">
        Skip to main content
      </SkipLink>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <Logo size={26} />
          <span>HubDesk</span>
        </div>
        {nav.map((n) => (
          <a
            key={n.page}
            href={hrefFor(n.page)}
            className={`nav-item${page === n.page ? ' active' : ''}`}
            aria-current={page === n.page ? 'page' : undefined}
            data-testid={`nav-${n.page}`}
          >
            <Icon name={n.icon} />
            <span>{n.label}</span>
          </a>
        ))}
      </nav>
      <main className="content" id="main-content" tabIndex={-1}>
        <PageBoundary key={page}>
          <Suspense fallback={<Loading />}>
            {page === 'catalogue' && <CataloguePage />}
            {page === 'models' && <pages.models.Component />}
            {page === 'chat' && <pages.chat.Component />}
            {page === 'tools' && <pages.tools.Component />}
            {page === 'settings' && <pages.settings.Component />}
          </Suspense>
        </PageBoundary>
      </main>
      <StatusBar />
    </div>
  );
}
