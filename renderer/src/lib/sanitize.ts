import DOMPurify from 'dompurify';

/**
 * The one way untrusted markup (model replies, model cards, Hub text) becomes HTML in the app. Every screen that
 * shows such markup passes it through here, so hardening it once hardens them all.
 *
 * The result is inert: no script, no styling from the content (no `style`, no `<style>`, no class but the app's own
 * code-block classes), nothing that can leave the flow of the text (dialogs, popovers, forms), and links that
 * show where they go and lead only to http(s) pages.
 */
export interface SanitizeOptions {
  /**
   * Rewrites (or refuses, with `null`) each link target and image source, e.g. to resolve a model card's relative
   * links against the Hub. Without it, URLs are kept as DOMPurify allows them.
   */
  rewriteUrl?: (url: string, kind: 'link' | 'image') => string | null;
  /** Tags removed with their content on top of the ones always removed (e.g. media in model cards). */
  forbidTags?: string[];
  /** Attributes removed on top of the ones always removed (e.g. `class` in model cards). */
  forbidAttrs?: string[];
  /**
   * Chat content: nothing remote loads until the user asks. An http(s) image becomes a button that says its host and
   * shows its alt text (`HELD_IMAGE_ATTR` holds its URL; lib/markdown/held-images.ts loads it on click); a `data:`
   * image (returned by a model or tool) is local and stays; any other source is dropped, as is every other way media
   * fetches (`srcset`, `poster`, video, audio, picture sources). The CSP is not relied on: it allows the Hub's images
   * for model cards.
   */
  holdRemoteImages?: boolean;
}

/** On a held image's button (see `holdRemoteImages`): the image's URL. Content cannot set it (data-* is refused). */
export const HELD_IMAGE_ATTR = 'data-load-image';
const HOLD_FORBID_TAGS = ['picture', 'source', 'video', 'audio', 'track'];
const HOLD_FORBID_ATTRS = ['srcset', 'poster'];

// Its own instance: the hooks below must not change how any other code uses DOMPurify.
const purify = DOMPurify(window);
// Hooks are per instance and sanitize() is synchronous, so the options of the call in progress live here.
let current: SanitizeOptions = {};
/** The buttons the hook below put in place of remote images: the only elements whose HELD_IMAGE_ATTR is kept. */
const heldButtons = new WeakSet<Node>();

/** The button standing for a remote image: `Load image from <host>`, after the alt text; its URL on hover. */
function heldImageButton(img: Element, src: string): HTMLButtonElement {
  const button = img.ownerDocument.createElement('button');
  button.type = 'button';
  button.setAttribute(HELD_IMAGE_ATTR, src);
  button.title = src;
  const alt = img.getAttribute('alt')?.trim();
  // The space keeps the alt text and the host apart in the button's accessible name.
  if (alt) button.append(Object.assign(img.ownerDocument.createElement('span'), { textContent: alt }), ' ');
  button.append(`Load image from ${new URL(src).host}`);
  heldButtons.add(button);
  return button;
}

/**
 * The classes the app's own Markdown renderer puts on code blocks: the copy button, and highlight.js's (`hljs-title`
 * with its sub-scopes, which end in underscores: `function_`, `class_`, `invoke__`). None can place anything.
 */
const appClass = /^(code-block|code-head|code-copy|hljs(-[a-z0-9_]+)*|[a-z]+_+|language-[a-z0-9_+#.-]+)$/i;

const FORBID_TAGS = [
  'style',
  'link',
  'svg',
  'math',
  'form',
  'input',
  'textarea',
  'select',
  'option',
  'dialog',
  'template',
  'slot',
];
const FORBID_ATTR = [
  'style',
  'id',
  'name',
  'popover',
  'popovertarget',
  'popovertargetaction',
  'autofocus',
  'tabindex',
  'contenteditable',
  'draggable',
  'accesskey',
  'background',
  'formaction',
];

/** An absolute http(s) URL, or null: relative, `javascript:`, `data:`, custom app schemes… open nothing. */
export function webUrl(raw: string): string | null {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * A sanitized link shows its real target on hover (its title) and, when its text says something else, the target's
 * host after the text: what is appended to a link to `target` whose text is `text`.
 */
export function linkSuffix(target: string, text: string): string {
  const host = new URL(target).host;
  return text.includes(host) ? '' : ` (${host})`;
}

purify.addHook('uponSanitizeAttribute', (node, data) => {
  if (data.attrName === HELD_IMAGE_ATTR && heldButtons.has(node)) data.forceKeepAttr = true;
  if (data.attrName !== 'class') return;
  const kept = data.attrValue.split(/\s+/).filter((c) => appClass.test(c));
  if (kept.length) data.attrValue = kept.join(' ');
  else data.keepAttr = false;
});

purify.addHook('afterSanitizeAttributes', (node) => {
  const el = node as Element;
  if (el.tagName === 'A') {
    let href = el.getAttribute('href');
    if (href !== null && current.rewriteUrl) href = current.rewriteUrl(href, 'link');
    const target = href === null ? null : webUrl(href);
    if (target === null) {
      el.removeAttribute('href');
      el.removeAttribute('target');
      el.removeAttribute('rel');
      return;
    }
    el.setAttribute('href', target);
    el.setAttribute('title', target);
    const suffix = linkSuffix(target, el.textContent ?? '');
    if (suffix) el.append(suffix);
    el.setAttribute('target', '_blank');
    el.setAttribute('rel', 'noopener noreferrer');
  }
  if (el.tagName === 'IMG') {
    const src = el.getAttribute('src');
    if (src !== null && current.rewriteUrl) {
      const next = current.rewriteUrl(src, 'image');
      if (next === null) el.removeAttribute('src');
      else el.setAttribute('src', next);
    }
    const kept = el.getAttribute('src');
    if (current.holdRemoteImages && kept !== null && !kept.startsWith('data:')) {
      const remote = webUrl(kept);
      if (remote === null) el.removeAttribute('src');
      else el.replaceWith(heldImageButton(el, remote));
    }
  }
});

/** Sanitized, inert HTML: no script, no event handler, no styling or overlays; links open outside the app. */
export function sanitizeUntrusted(html: string, opts: SanitizeOptions = {}): string {
  current = opts;
  try {
    return purify.sanitize(html, {
      ADD_ATTR: ['target', 'data-copy-code'],
      ALLOW_DATA_ATTR: false,
      FORBID_TAGS: [...FORBID_TAGS, ...(opts.holdRemoteImages ? HOLD_FORBID_TAGS : []), ...(opts.forbidTags ?? [])],
      FORBID_ATTR: [...FORBID_ATTR, ...(opts.holdRemoteImages ? HOLD_FORBID_ATTRS : []), ...(opts.forbidAttrs ?? [])],
    });
  } finally {
    current = {};
  }
}
