import { Suspense, useEffect } from 'react';
import { Icon, type IconName } from '../components/Icon';
import { SkipLink } from '../components/SkipLink';
import { Logo } from '../components/Logo';
import { Loading } from '../components/States';
import { PageBoundary } from '../components/PageBoundary';
import { startIdlePreload } from '../lib/idle-preload';
import { CataloguePage } from '../pages/catalogue/CataloguePage';
import { FirstRun } from '../pages/first-run/FirstRun';
import { hrefFor, prepareRoutes, useRoute, type Page } from '../store/route';
import { resolvedTheme, useSettings } from '../store/settings';
import { lazyPage, lazyPages } from './lazy-pages';
import { StatusBar } from './StatusBar';
import { useShortcuts } from './shortcuts';

// Going to a page waits for its code (up to PREPARE_MS), so the current page stays until the next one can render
// without a Suspense fallback (see lazyComponent). What loads at start-up is listed in startup.ts.
prepareRoutes(({ page }) => lazyPage(page)?.preload());

const nav: { page: Page; label: string; icon: IconName }[] = [
  { page: 'catalogue', label: 'Catalogue', icon: 'catalogue' },
  { page: 'models', label: 'Local models', icon: 'models' },
  { page: 'chat', label: 'Chat', icon: 'chat' },
  { page: 'compare', label: 'Compare', icon: 'compare' },
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
  // The idle preloads startup.ts queued wait for the first render, then for the app to be idle.
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
            {page === 'models' && <lazyPages.models.Component />}
            {page === 'chat' && <lazyPages.chat.Component />}
            {page === 'compare' && <lazyPages.compare.Component />}
            {page === 'tools' && <lazyPages.tools.Component />}
            {page === 'settings' && <lazyPages.settings.Component />}
          </Suspense>
        </PageBoundary>
      </main>
      <StatusBar />
    </div>
  );
}
