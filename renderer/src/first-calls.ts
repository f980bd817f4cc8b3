// The calls the first screen waits for, sent while the rest of the JS (React DOM, the app) is still being evaluated:
// main.tsx imports this module first, and modules run in import order.
import { useCatalogue } from './store/catalogue';
import { useRoute } from './store/route';
import { useSettings } from './store/settings';

/**
 * Settings decide the first screen (the first-run choice, or the app), and the catalogue is that screen. Settles
 * when both have answered (an error included: the screens show it).
 */
export const firstCalls: Promise<unknown> = Promise.allSettled([
  useSettings.getState().load(),
  useRoute.getState().page === 'catalogue' ? useCatalogue.getState().load() : undefined,
]);
