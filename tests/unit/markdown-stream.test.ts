import { Marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { END_MARKER, MARKDOWN_MARKERS, markdownStream } from '../fixtures/markdown-stream';

/** Every token marked's lexer finds, nested ones included. */
function allTokens(text: string): Token[] {
  const out: Token[] = [];
  const marked = new Marked({ gfm: true });
  marked.walkTokens(marked.lexer(text), (t) => void out.push(t));
  return out;
}

/** The text a browser would show for the rendered HTML (tags dropped, the few entities marked writes decoded). */
function renderedText(text: string): string {
  const html = new Marked({ gfm: true }).parse(text, { async: false });
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('markdownStream (the bench and tests markdown-heavy reply)', () => {
  it('gives exactly N chunks whose concatenation is the text, about 4 characters each', () => {
    for (const n of [2, 50, 1_000, 10_000]) {
      const s = markdownStream(n);
      expect(s.chunks).toHaveLength(n);
      expect(s.chunks.join('')).toBe(s.text);
      expect(s.chunks.every((c) => c.length > 0)).toBe(true);
    }
    const big = markdownStream(10_000);
    const avg = big.text.length / big.chunks.length;
    expect(avg).toBeGreaterThan(3.5);
    expect(avg).toBeLessThan(4.5);
  });

  it('is deterministic for a seed, and another seed gives another reply', () => {
    expect(markdownStream(2_000)).toEqual(markdownStream(2_000));
    expect(markdownStream(2_000, 2).text).not.toBe(markdownStream(2_000).text);
  });

  it('ends with the end marker alone in the last chunk, found nowhere else', () => {
    const s = markdownStream(3_000);
    expect(s.chunks.at(-1)).toBe(END_MARKER);
    expect(s.text.indexOf(END_MARKER.trim())).toBe(s.text.length - END_MARKER.trim().length);
    expect(renderedText(s.text).trimEnd().endsWith(`That is all.${END_MARKER}`)).toBe(true);
  });

  it('covers every construct: headings, nested and ordered lists, five languages, tables, quotes, inline styles', () => {
    const tokens = allTokens(markdownStream(2_000).text);
    const types = new Set(tokens.map((t) => t.type));
    for (const t of ['heading', 'list', 'code', 'table', 'blockquote', 'strong', 'em', 'codespan', 'link', 'del'])
      expect(types, t).toContain(t);
    const langs = new Set(tokens.filter((t) => t.type === 'code').map((t) => (t as Token & { lang: string }).lang));
    expect([...langs].sort()).toEqual(['bash', 'json', 'python', 'rust', 'ts']);
    // How deep lists nest: a list inside an item of a list inside an item… counts each level.
    const depth = (t: Token): number =>
      t.type === 'list' ? 1 + Math.max(0, ...(t as Tokens.List).items.flatMap((item) => item.tokens.map(depth))) : 0;
    expect(Math.max(...tokens.filter((t) => t.type === 'list').map(depth))).toBeGreaterThanOrEqual(3);
  });

  it('splits most markers across chunks: `**`, fences, `](`, table separators, `~~`', () => {
    const { chunks, text } = markdownStream(10_000);
    const cuts = new Set<number>();
    let at = 0;
    for (const c of chunks) cuts.add((at += c.length));
    for (const m of ['**', '```', '](', '~~']) {
      const found = [...text.matchAll(new RegExp(m.replace(/[*`()[\]]/g, '\\$&'), 'g'))];
      const split = found.filter((x) => [...Array(m.length - 1).keys()].some((k) => cuts.has(x.index + k + 1)));
      // A cut every ~4 characters splits a 2-character marker ~1 time in 4 by chance; most are split on purpose.
      expect(split.length / found.length, m).toBeGreaterThan(0.5);
    }
    // Table separator rows (`|---` or `| ---`): some arrive cut right after their first pipe.
    expect([...text.matchAll(/\| ?---/g)].some((x) => cuts.has(x.index + 1))).toBe(true);
  });

  it('renders to text without any raw-markdown marker, so a marker seen mid-stream is half-finished markdown', () => {
    const shown = renderedText(markdownStream(5_000).text);
    for (const m of MARKDOWN_MARKERS) expect(shown.includes(m), m).toBe(false);
    // …while the source has them all.
    for (const m of MARKDOWN_MARKERS) expect(markdownStream(5_000).text.includes(m), m).toBe(true);
  });
});
