/**
 * How long the pointer rests on a link (or the focus, or the search box's active result, stays on it) before the page
 * it opens starts preparing: links passed over are skipped, and the ~200–300 ms between resting on a link and
 * clicking it go to that page's code and answers.
 */
export const INTENT_MS = 80;

let aimed: string | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners: ((href: string) => void)[] = [];

/** Says the user rests on a link to `href` (undefined: on none); its listeners run once that has lasted INTENT_MS. */
export function intendLink(href: string | undefined): void {
  if (href === aimed) return;
  aimed = href;
  clearTimeout(timer);
  if (href === undefined) return;
  timer = setTimeout(() => listeners.forEach((fn) => fn(href)), INTENT_MS);
}

const inAppLink = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLAnchorElement>('a[href^="#/"]')?.getAttribute('href') : undefined;

/**
 * Runs `fn` with the in-app link (`#/…`) the user rests on: the pointer over it, or the focus on it. The first
 * listener installs the document's handlers.
 */
export function onLinkIntent(fn: (href: string) => void): void {
  if (listeners.push(fn) > 1) return;
  document.addEventListener('pointerover', (e) => intendLink(inAppLink(e.target) ?? undefined));
  document.addEventListener('focusin', (e) => intendLink(inAppLink(e.target) ?? undefined));
}
