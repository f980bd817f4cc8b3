import { HELD_IMAGE_ATTR } from '../sanitize';

/**
 * The remote images the user chose to load in chat, by URL, for this session: a block rendered again (the reply
 * still streaming, its message scrolled back into view) shows them, not their buttons again.
 */
const loaded = new Set<string>();

/** The image a held-image button stands for (see sanitize.ts's `holdRemoteImages`), in its place. */
function showImage(button: Element, src: string): HTMLImageElement {
  const img = button.ownerDocument.createElement('img');
  img.alt = button.querySelector('span')?.textContent ?? '';
  img.src = src;
  // Focusable by script only: the focus the removed button had stays at this place in the message.
  img.tabIndex = -1;
  button.replaceWith(img);
  return img;
}

/**
 * Handles a click in chat content: when it is on a held image's button, loads that image (and no other) in its
 * place. Returns whether it was one.
 */
export function loadHeldImage(target: EventTarget | null): boolean {
  const button = target instanceof Element ? target.closest(`button[${HELD_IMAGE_ATTR}]`) : null;
  const src = button?.getAttribute(HELD_IMAGE_ATTR);
  if (!button || !src) return false;
  loaded.add(src);
  const hadFocus = button.contains(document.activeElement);
  const img = showImage(button, src);
  if (hadFocus) img.focus();
  return true;
}

/** Shows in `root`, just rendered, the held images the user already loaded. Cheap when none were. */
export function showLoadedImages(root: Element, html: string): void {
  if (loaded.size === 0 || !html.includes(HELD_IMAGE_ATTR)) return;
  for (const button of root.querySelectorAll(`button[${HELD_IMAGE_ATTR}]`)) {
    const src = button.getAttribute(HELD_IMAGE_ATTR)!;
    if (loaded.has(src)) showImage(button, src);
  }
}
