import hljs from 'highlight.js/lib/common';
import { Marked } from 'marked';
import { sanitizeUntrusted } from '../../lib/sanitize';
import { stableBoundary } from './stream-split';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const marked = new Marked({
  gfm: true,
  renderer: {
    code({ text, lang }) {
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
    },
  },
});

/** GFM Markdown to sanitized HTML, code blocks highlighted and each given a copy button. */
export function renderMarkdown(src: string): string {
  return sanitizeUntrusted(marked.parse(src, { async: false }));
}

/**
 * Renders a growing text into an element: finished blocks are parsed once and appended; only the last,
 * unfinished block is re-rendered on each update.
 */
export class IncrementalMarkdown {
  private done = 0;
  private readonly stable: HTMLElement;
  private readonly tail: HTMLElement;

  constructor(root: HTMLElement) {
    root.replaceChildren();
    this.stable = document.createElement('div');
    this.tail = document.createElement('div');
    root.append(this.stable, this.tail);
  }

  update(text: string): void {
    if (text.length < this.done) {
      this.done = 0;
      this.stable.replaceChildren();
    }
    const b = stableBoundary(text, this.done);
    if (b > this.done) {
      this.stable.insertAdjacentHTML('beforeend', renderMarkdown(text.slice(this.done, b)));
      this.done = b;
    }
    const rest = text.slice(this.done);
    this.tail.innerHTML = rest ? renderMarkdown(rest) : '';
  }
}
