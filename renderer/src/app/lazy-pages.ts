import { lazyComponent } from '../lib/lazy-component';
import type { Page } from '../store/route';

// The catalogue is the first screen; the other pages load when first opened, keeping start-up small.
export const lazyPages = {
  models: lazyComponent(
    () => import('../pages/models/ModelsPage'),
    (m) => m.ModelsPage,
  ),
  chat: lazyComponent(
    () => import('../pages/chat/ChatPage'),
    (m) => m.ChatPage,
  ),
  compare: lazyComponent(
    () => import('../pages/compare/ComparePage'),
    (m) => m.ComparePage,
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

/** The lazily loaded page a route names; undefined for the catalogue, which is in the first chunk. */
export const lazyPage = (page: Page) =>
  Object.hasOwn(lazyPages, page) ? lazyPages[page as keyof typeof lazyPages] : undefined;
