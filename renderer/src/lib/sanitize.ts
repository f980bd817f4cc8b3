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
    return purify.sanitize(html, { ADD_ATTR: ['target', 'data-copy-code'] });
  } finally {
    current = {};
  }
}
