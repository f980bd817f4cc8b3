import hljs from 'highlight.js/lib/common';
import { Lexer, Marked, Renderer, type Token, type Tokens } from 'marked';
import { linkSuffix, sanitizeUntrusted, webUrl } from '../sanitize';
import { tableOpen, widestCells } from './table-columns';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Code highlighted for `lang` (its first word), or escaped when the highlighter does not know it. */
export function highlightCode(text: string, lang: string | undefined): string {
  const language = (lang ?? '').trim().split(/\s+/)[0];
  try {
    if (language && hljs.getLanguage(language)) return hljs.highlight(text, { language, ignoreIllegals: true }).value;
  } catch {
    // escaped below
  }
  return escapeHtml(text);
}

/** Languages replies use most, compiled first; then the rest the highlighter bundles. */
const COMMON_FIRST = ['python', 'typescript', 'javascript', 'bash', 'json', 'rust', 'go', 'sql', 'java', 'cpp', 'yaml'];

/**
 * Compiles the highlighter's languages while the window is idle, one at a time. highlight.js compiles a language's
 * patterns the first time it highlights it, 2–12 ms each here: done while a reply streams, that lands in one frame
 * and drops it, when a code block in a language not seen yet opens.
 */
export function warmHighlighter(): void {
  if (typeof requestIdleCallback !== 'function') return;
  const queue = [...new Set([...COMMON_FIRST, ...hljs.listLanguages()])];
  const step = (deadline: IdleDeadline) => {
    while (queue.length && deadline.timeRemaining() > 12) hljs.highlight('x', { language: queue.shift()! });
    if (queue.length) requestIdleCallback(step);
  };
  requestIdleCallback(step);
}

/** A code block's markup before and after its highlighted code: the language, a copy button, the `pre`. */
export function codeBlockParts(lang: string | undefined): [string, string] {
  const language = (lang ?? '').trim().split(/\s+/)[0];
  return [
    `<div class="code-block"><div class="code-head"><span>${escapeHtml(language || 'text')}</span>` +
      `<button type="button" class="code-copy" data-copy-code>Copy</button></div>` +
      `<pre><code class="hljs">`,
    `</code></pre></div>`,
  ];
}

/** A code block: highlighted, with the language and a copy button. Built here, from escaped text only. */
function codeBlock(text: string, lang: string | undefined): string {
  const [head, foot] = codeBlockParts(lang);
  return head + highlightCode(text, lang) + foot;
}

/** A link's target as the sanitizer keeps it: marked's cleaned URL, if it is an absolute http(s) one; else null. */
function webLink(href: string): string | null {
  let clean: string;
  try {
    clean = encodeURI(href).replace(/%25/g, '%'); // what marked writes as the href
  } catch {
    return null;
  }
  return webUrl(clean);
}

const textBox = document.createElement('template');
/** The text of inline markup, as the sanitizer's `textContent` reads it (a template's content: nothing loads or runs). */
function textOf(html: string): string {
  textBox.innerHTML = html;
  return textBox.content.textContent ?? '';
}

/**
 * A link to an http(s) page written as the sanitizer leaves it (its real target as `href` and `title`, the host
 * after a text that does not name it, `target` and `rel`), so a block whose links are all such links is inert
 * markup and skips the sanitizer. Other links keep marked's markup, for the sanitizer to judge.
 */
function webLinkHtml(inner: string, href: string): string | false {
  const target = webLink(href);
  if (target === null) return false;
  const t = escapeHtml(target);
  return (
    `<a href="${t}" title="${t}" target="_blank" rel="noopener noreferrer">` +
    `${inner}${escapeHtml(linkSuffix(target, textOf(inner)))}</a>`
  );
}

const marked = new Marked({
  gfm: true,
  renderer: {
    code: ({ text, lang }) => codeBlock(text, lang),
    table(token) {
      const html = Renderer.prototype.table.call(this, token);
      return html.replace('<table>\n', tableOpen(widestCells(token.header, token.rows)));
    },
    link(token) {
      const inner = token.autolink ? escapeHtml(token.text) : this.parser.parseInline(token.tokens);
      return webLinkHtml(inner, token.href);
    },
  },
});

/**
 * Tokens marked renders as fixed tags around escaped text (code blocks: the app's own markup around hljs-escaped
 * text), with no attribute but `start` (a number) and `align`, and links to http(s) pages written as the sanitizer
 * leaves them: nothing the sanitizer would remove or rewrite. Raw HTML, other links, images and task-list
 * checkboxes are not among them.
 */
const INERT = new Set([
  'space',
  'paragraph',
  'heading',
  'hr',
  'blockquote',
  'list',
  'table',
  'code',
  'text',
  'escape',
  'strong',
  'em',
  'codespan',
  'br',
  'del',
]);

/** Whether markup built from `tokens` is inert as marked writes it, so sanitizing it would change nothing. */
export function isInert(tokens: Token[]): boolean {
  return tokens.every((t) => {
    if (t.type === 'link') return webLink((t as Tokens.Link).href) !== null && isInert(t.tokens ?? []);
    if (!INERT.has(t.type) || (t.type === 'text' && t.escaped)) return false;
    if (t.type === 'list') return (t as Tokens.List).items.every((item) => !item.task && isInert(item.tokens));
    if (t.type === 'table') {
      const { header, rows } = t as Tokens.Table;
      return [header, ...rows].every((row) => row.every((cell) => isInert(cell.tokens)));
    }
    return !('tokens' in t && t.tokens) || isInert(t.tokens);
  });
}

/**
 * One block to HTML. Markup that is inert as marked builds it (most prose, lists, tables and code) skips the
 * sanitizer, the costliest step of a streaming frame; anything else from the model (raw HTML, other links, images)
 * is sanitized, and its remote images wait for a click (`holdRemoteImages`).
 */
function renderUncached(raw: string, lexed?: Token[]): string {
  const tokens = lexed ?? Lexer.lex(raw, { gfm: true });
  const html = marked.parser(tokens);
  return isInert(tokens) ? html : sanitizeUntrusted(html, { holdRemoteImages: true });
}

// Finished blocks are rendered once: a reply's blocks while it streams, its final render, and reopening it later all
// hit this cache. Bounded, oldest first out.
const cache = new Map<string, string>();
const CACHE_MAX = 4000;

/**
 * `transient`: a streaming tail that will not be seen again; rendered without filling the cache. `tokens`: `raw`
 * as the block splitter already lexed it, so it is not lexed twice.
 */
export function renderBlock(raw: string, transient = false, tokens?: Token[]): string {
  let html = cache.get(raw);
  if (html === undefined) {
    html = renderUncached(raw, tokens);
    if (transient) return html;
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(raw, html);
  }
  return html;
}
