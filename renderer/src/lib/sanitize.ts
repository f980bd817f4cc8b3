import DOMPurify from 'dompurify';

/**
 * The one way untrusted markup (model replies, model cards, Hub text) becomes HTML in the app. Every screen that
 * shows such markup passes it through here, so hardening it once hardens them all.
 */
export interface SanitizeOptions {
  /**
   * Rewrites (or refuses, with `null`) each link target and image source, e.g. to resolve a model card's relative
   * links against the Hub. Without it, URLs are kept as DOMPurify allows them.
   */
  rewriteUrl?: (url: string, kind: 'link' | 'image') => string | null;
  /** Tags removed with their content on top of DOMPurify's defaults (e.g. `style`, `form`, `svg` in model cards). */
  forbidTags?: string[];
  /** Attributes removed on top of DOMPurify's defaults (e.g. `style`, `class`, `id` in model cards). */
  forbidAttrs?: string[];
  /** Gives each link a `title` with its real target, so a link's text cannot hide where it goes. */
  linkTitles?: boolean;
}

// Its own instance: the hooks below must not change how any other code uses DOMPurify.
const purify = DOMPurify(window);
// Hooks are per instance and sanitize() is synchronous, so the options of the call in progress live here.
let current: SanitizeOptions = {};

purify.addHook('afterSanitizeAttributes', (node) => {
  const el = node as Element;
  if (el.tagName === 'A') {
    const href = el.getAttribute('href');
    if (href !== null && current.rewriteUrl) {
      const next = current.rewriteUrl(href, 'link');
      if (next === null) el.removeAttribute('href');
      else el.setAttribute('href', next);
    }
    const target = el.getAttribute('href');
    if (current.linkTitles && target !== null) el.setAttribute('title', target);
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
  }
});

/** Sanitized HTML: no script, no event handler; links open outside the app. */
export function sanitizeUntrusted(html: string, opts: SanitizeOptions = {}): string {
  current = opts;
  try {
    return purify.sanitize(html, {
      ADD_ATTR: ['target', 'data-copy-code'],
      ...(opts.forbidTags ? { FORBID_TAGS: opts.forbidTags } : {}),
      ...(opts.forbidAttrs ? { FORBID_ATTR: opts.forbidAttrs } : {}),
    });
  } finally {
    current = {};
  }
}
