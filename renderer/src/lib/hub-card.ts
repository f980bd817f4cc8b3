import { Marked } from 'marked';
import { sanitizeUntrusted } from './sanitize';
import { splitMarkdown, type UrlRewriter } from './hub-card-text';
import { Lru } from '@shared/lru';
import { afterPaint } from './after-paint';

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

/** A card touching most of the renderer's paths: headings, emphasis, links, images, lists, a table, code, HTML. */
const WARM_UP_CARD = [
  '# Model\n\nSome **bold**, *emphasis*, `code`, a [link](docs/a.md) and an ![image](assets/a.png).',
  '## Usage\n\n- one\n- two with [a link](https://huggingface.co)\n\n1. first\n2. second\n\n> a quote',
  '| a | b |\n| - | - |\n| 1 | 2 |\n\n```python\nprint("hi")\n```\n\n<div align="center"><b>html</b></div>',
].join('\n\n');

/**
 * Renders a small card and drops it (nothing reaches the document). The first card in a window otherwise compiles
 * the markdown parser's and the sanitiser's code and regular expressions (15–25 ms) while its page opens; this is
 * run when the window is idle.
 */
export function warmCardRenderer(): void {
  renderCardHtml(WARM_UP_CARD, (url) => url);
}

/** The first piece of the cards shown last (16), by the caller's key: a card opened again is not parsed again. */
const firstPieces = new Lru<{ markdown: string; html: string }>(16);

/**
 * Renders a card into `root` without a long task: the first piece at once, the rest in batches of at most
 * `budgetMs` per task, yielding between them so the page paints and stays responsive. Returns a cancel function.
 * With a `cacheKey` (the repo and the Hub its URLs are resolved against), the first piece's HTML is kept for the
 * next time the same card is shown.
 */
export function renderCardProgressively(
  root: HTMLElement,
  markdown: string,
  rewriteUrl: UrlRewriter,
  opts: { budgetMs?: number; onDone?: () => void; cacheKey?: string } = {},
): () => void {
  // Small pieces (~2 KB): one costs a few ms to parse and sanitise, so a batch never becomes a long task.
  const pieces = splitMarkdown(markdown, 2_000);
  const budget = opts.budgetMs ?? 10;
  let next = 0;
  let cancelled = false;
  // User Timing marks: `npm run bench` reads them to time the card apart from the rest of the page.
  performance.mark('hub-card:start');
  root.replaceChildren();
  const firstHtml = (): string => {
    const key = opts.cacheKey;
    const kept = key === undefined ? undefined : firstPieces.get(key);
    if (kept?.markdown === markdown) return kept.html;
    const html = renderCardHtml(pieces[0], rewriteUrl);
    if (key !== undefined) firstPieces.set(key, { markdown, html });
    return html;
  };
  const append = () => {
    const div = document.createElement('div');
    div.dataset.piece = String(next);
    div.innerHTML = next === 0 ? firstHtml() : renderCardHtml(pieces[next], rewriteUrl);
    next++;
    root.append(div);
  };
  append();
  performance.mark('hub-card:first');
  // One batch per frame, run just after the frame is painted.
  const later = () => afterPaint(step);
  const step = () => {
    if (cancelled) return;
    const t0 = performance.now();
    while (next < pieces.length && performance.now() - t0 < budget) append();
    if (next < pieces.length) later();
    else opts.onDone?.();
  };
  // Done is reported after the first frame even for a one-piece card: a caller setting state from it does not add a
  // render to the commit that mounted the card.
  later();
  return () => {
    cancelled = true;
  };
}
