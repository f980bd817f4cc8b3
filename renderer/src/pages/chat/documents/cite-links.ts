import type { Citation } from '@shared/contract/documents';

const MARK = /\[(\d{1,3})\]/g;

/**
 * Turns the reply's `[n]` markers into buttons that open source n (the Markdown is rendered outside React, so this
 * works on its DOM): text in code, links and buttons is left alone, and a marker with no such source stays text.
 * Returns whether anything changed.
 */
export function linkCitations(body: HTMLElement, citations: Citation[]): boolean {
  const byN = new Map(citations.map((c) => [c.n, c]));
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const hits: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    if (!MARK.test(t.data)) continue;
    MARK.lastIndex = 0;
    if (!t.parentElement?.closest('pre, code, a, button')) hits.push(t);
  }
  let changed = false;
  for (const t of hits) {
    const parts: (string | HTMLButtonElement)[] = [];
    let at = 0;
    for (const m of t.data.matchAll(MARK)) {
      const c = byN.get(Number(m[1]));
      if (!c) continue;
      parts.push(t.data.slice(at, m.index));
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'doc-cite';
      b.dataset.cite = String(c.n);
      b.textContent = `[${c.n}]`;
      b.setAttribute('aria-label', `Source ${c.n}: ${c.name}`);
      parts.push(b);
      at = m.index + m[0].length;
    }
    if (at === 0) continue;
    parts.push(t.data.slice(at));
    t.replaceWith(...parts.filter((p) => p !== ''));
    changed = true;
  }
  return changed;
}
