import { Marked } from 'marked';
import { sanitizeUntrusted } from './sanitize';
import { splitMarkdown, type UrlRewriter } from './hub-card-text';

/** What a card may not carry at all: no styling of the app, no forms, no embedded documents or media. */
const CARD_FORBID_TAGS = [
  'style',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'frame',
  'object',
  'embed',
  'svg',
  'math',
  'video',
  'audio',
  'source',
  'track',
  'picture',
  'dialog',
];
const CARD_FORBID_ATTRS = ['style', 'class', 'id', 'name', 'srcset', 'formaction', 'ping', 'background', 'poster'];

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const marked = new Marked({ gfm: true });

/** One piece of a card as sanitised HTML; markdown that cannot be parsed is shown as text. */
function renderCardHtml(markdown: string, rewriteUrl: UrlRewriter): string {
  let html: string;
  try {
    html = marked.parse(markdown, { async: false });
  } catch {
    html = `<pre>${escapeHtml(markdown)}</pre>`;
  }
  return sanitizeUntrusted(html, {
    rewriteUrl,
    forbidTags: CARD_FORBID_TAGS,
    forbidAttrs: CARD_FORBID_ATTRS,
  });
}

/**
 * Renders a card into `root` without a long task: the first piece at once, the rest in batches of at most
 * `budgetMs` per task, yielding between them so the page paints and stays responsive. Returns a cancel function.
 */
export function renderCardProgressively(
  root: HTMLElement,
  markdown: string,
  rewriteUrl: UrlRewriter,
  opts: { budgetMs?: number; onDone?: () => void } = {},
): () => void {
  // Small pieces (~2 KB): one costs a few ms to parse and sanitise, so a batch never becomes a long task.
  const pieces = splitMarkdown(markdown, 2_000);
  const budget = opts.budgetMs ?? 10;
  let next = 0;
  let cancelled = false;
  // User Timing marks: `npm run bench` reads them to time the card apart from the rest of the page.
  performance.mark('hub-card:start');
  root.replaceChildren();
  const append = () => {
    const div = document.createElement('div');
    div.dataset.piece = String(next);
    div.innerHTML = renderCardHtml(pieces[next++], rewriteUrl);
    root.append(div);
  };
  append();
  performance.mark('hub-card:first');
  // One batch per frame, run just after the frame is painted (rAF → task): a chain of bare timeouts would let
  // the browser postpone painting until all pieces are in.
  const later = () => requestAnimationFrame(() => setTimeout(step, 0));
  const step = () => {
    if (cancelled) return;
    const t0 = performance.now();
    while (next < pieces.length && performance.now() - t0 < budget) append();
    if (next < pieces.length) later();
    else opts.onDone?.();
  };
  if (next < pieces.length) later();
  else opts.onDone?.();
  return () => {
    cancelled = true;
  };
}
