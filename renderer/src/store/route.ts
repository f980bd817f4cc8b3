import { create } from 'zustand';
import { pages, type Page } from '@shared/pages';

export type { Page };

export interface Route {
  page: Page;
  /** The rest of the path after the page, e.g. ['task', 'text-generation']. */
  params: string[];
}

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const page = (pages as readonly string[]).includes(parts[0] ?? '') ? (parts[0] as Page) : 'catalogue';
  return { page, params: page === parts[0] ? parts.slice(1) : [] };
}

export function hrefFor(page: Page, ...params: string[]): string {
  return `#/${[page, ...params].map(encodeURIComponent).join('/')}`;
}

/** A link that starts a new chat with a model (an Ollama model name, or a Hub id through the inference router). */
export function newChatHref(backend: 'ollama' | 'provider', model: string): string {
  return hrefFor('chat', 'new', backend, model);
}

interface RouteState extends Route {
  go(page: Page, ...params: string[]): void;
}

/** The current page lives in the URL hash, so reloads and back/forward keep the user's place. */
export const useRoute = create<RouteState>((set) => {
  window.addEventListener('hashchange', () => set(parseHash(location.hash)));
  return {
    ...parseHash(location.hash),
    go: (page, ...params) => {
      const href = hrefFor(page, ...params);
      if (location.hash !== href) location.hash = href;
      else set(parseHash(href));
    },
  };
});
