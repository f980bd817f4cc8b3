import hljs from 'highlight.js/lib/common';
import { Lexer, Marked, type Token } from 'marked';
import { sanitizeUntrusted } from '../sanitize';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A code block: highlighted, with the language and a copy button. Built here, from escaped text only. */
function codeBlock(text: string, lang: string | undefined): string {
  const language = (lang ?? '').trim().split(/\s+/)[0];
  let body: string;
  try {
    body =
      language && hljs.getLanguage(language)
        ? hljs.highlight(text, { language, ignoreIllegals: true }).value
        : escapeHtml(text);
  } catch {
    body = escapeHtml(text);
  }
  return (
    `<div class="code-block"><div class="code-head"><span>${escapeHtml(language || 'text')}</span>` +
    `<button type="button" class="code-copy" data-copy-code>Copy</button></div>` +
    `<pre><code class="hljs">${body}</code></pre></div>`
  );
}

const marked = new Marked({ gfm: true, renderer: { code: ({ text, lang }) => codeBlock(text, lang) } });

/**
 * One block to HTML. A code block is the app's own markup around hljs-escaped text and skips the sanitizer (the
 * costliest step for highlighted code); everything else from the model is sanitized.
 */
function renderUncached(raw: string): string {
  const tokens = Lexer.lex(raw, { gfm: true });
  const only = tokens.filter((t: Token) => t.type !== 'space');
  if (only.length === 1 && only[0].type === 'code') return codeBlock(only[0].text, only[0].lang);
  return sanitizeUntrusted(marked.parser(tokens));
}

// Finished blocks are rendered once: a reply's blocks while it streams, its final render, and reopening it later all
// hit this cache. Bounded, oldest first out.
const cache = new Map<string, string>();
const CACHE_MAX = 4000;

/** `transient`: a streaming tail that will not be seen again; rendered without filling the cache. */
export function renderBlock(raw: string, transient = false): string {
  let html = cache.get(raw);
  if (html === undefined) {
    html = renderUncached(raw);
    if (transient) return html;
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(raw, html);
  }
  return html;
}
