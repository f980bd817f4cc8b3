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
export function renderCardHtml(markdown: string, rewriteUrl: UrlRewriter): string {
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
    linkTitles: true,
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
  const pieces = splitMarkdown(markdown);
  const budget = opts.budgetMs ?? 8;
  let next = 0;
  let cancelled = false;
  root.replaceChildren();
  const append = () => {
    const div = document.createElement('div');
    div.dataset.piece = String(next);
    div.innerHTML = renderCardHtml(pieces[next++], rewriteUrl);
    root.append(div);
  };
  append();
  const step = () => {
    if (cancelled) return;
    const t0 = performance.now();
    while (next < pieces.length && performance.now() - t0 < budget) append();
    if (next < pieces.length) setTimeout(step, 0);
    else opts.onDone?.();
  };
  if (next < pieces.length) setTimeout(step, 0);
  else opts.onDone?.();
  return () => {
    cancelled = true;
  };
}
