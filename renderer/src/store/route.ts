import { create } from 'zustand';
import type { HubPageKind } from '@shared/hub-kinds';
import { pages, type Page } from '@shared/pages';
import type { NewChatBackend } from '../lib/engines';
import { onLinkIntent } from '../lib/link-intent';

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

export type CatalogueKind = 'task' | 'library' | HubPageKind;

/** `#/catalogue/<kind>/<id>`: the id is one encoded segment, so model ids keep their slash. */
export function catalogueHref(kind: CatalogueKind, id: string): string {
  return hrefFor('catalogue', kind, id);
}

/**
 * A link that starts a new chat with a model: an Ollama model name, a Hub id through the inference router, or a
 * local model id (a GGUF on disk) on the built-in engine.
 */
export function newChatHref(backend: NewChatBackend, model: string): string {
  return hrefFor('chat', 'new', backend, model);
}

interface RouteState extends Route {
  go(page: Page, ...params: string[]): void;
}

/**
 * What a page needs before it is worth showing (its code, its first answer from main), started when its address
 * is set; undefined when it has all of it at hand.
 */
export type RoutePreparer = (route: Route) => Promise<unknown> | undefined;
const preparers: RoutePreparer[] = [];

/**
 * Registers a preparer: a new address waits for what it returns, up to PREPARE_MS, before its page renders. Resting on
 * a link to an address (see onLinkIntent) runs the preparers earlier, without waiting.
 */
export function prepareRoutes(preparer: RoutePreparer): void {
  preparers.push(preparer);
}
onLinkIntent((href) => {
  const route = parseHash(href);
  for (const prepare of preparers) void prepare(route)?.catch(() => undefined);
});

/**
 * How long a new address keeps the current page on screen while the next one prepares. Answers from main's cache
 * take a few milliseconds, so such a page appears once, complete, instead of as a loading state followed by the
 * page a frame or two later; a slower answer (the live Hub) shows the page's loading state after this.
 */
export const PREPARE_MS = 120;

/** The current page lives in the URL hash, so reloads and back/forward keep the user's place. */
export const useRoute = create<RouteState>((set) => {
  let latest = 0;
  window.addEventListener('hashchange', () => {
    const next = parseHash(location.hash);
    const nav = ++latest;
    const waits = preparers.map((prepare) => prepare(next)).filter((w) => w !== undefined);
    if (waits.length === 0) return set(next);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, PREPARE_MS)));
    // A newer address supersedes this one; a failed preparation is the page's to show.
    void Promise.race([Promise.allSettled(waits), bound]).then(() => {
      clearTimeout(timer);
      if (nav === latest) set(next);
    });
  });
  return {
    ...parseHash(location.hash),
    go: (page, ...params) => {
      const href = hrefFor(page, ...params);
      if (location.hash !== href) location.hash = href;
      else set(parseHash(href));
    },
  };
});
