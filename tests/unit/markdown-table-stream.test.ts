import { Marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { END_MARKER, MARKDOWN_MARKERS, tableCodeStream } from '../fixtures/markdown-stream';

const lex = (text: string): Token[] => new Marked({ gfm: true }).lexer(text);

describe('tableCodeStream (the bench table-and-code reply)', () => {
  it('gives exactly N chunks of about 4 characters joining to the text, the end marker alone last', () => {
    for (const n of [2, 300, 10_000]) {
      const s = tableCodeStream(n);
      expect(s.chunks).toHaveLength(n);
      expect(s.chunks.join('')).toBe(s.text);
      expect(s.chunks.every((c) => c.length > 0)).toBe(true);
      expect(s.chunks.at(-1)).toBe(END_MARKER);
    }
    const big = tableCodeStream(10_000);
    expect(big.text.length / big.chunks.length).toBeGreaterThan(3.5);
    expect(big.text.length / big.chunks.length).toBeLessThan(4.5);
  });

  it('is wide tables of many rows and long code in several languages', () => {
    const tokens = lex(tableCodeStream(20_000).text);
    const tables = tokens.filter((t): t is Tokens.Table => t.type === 'table');
    expect(tables.length).toBeGreaterThanOrEqual(5);
    expect(tables.every((t) => t.header.length === 8)).toBe(true);
    expect(Math.max(...tables.map((t) => t.rows.length))).toBeGreaterThanOrEqual(36);
    const code = tokens.filter((t): t is Tokens.Code => t.type === 'code');
    expect(new Set(code.map((c) => c.lang)).size).toBeGreaterThanOrEqual(5);
    expect(code.filter((c) => c.text.split('\n').length >= 150).length).toBeGreaterThanOrEqual(4);
  });

  it('renders to a text with no raw markdown marker, so one seen while streaming is half-finished markdown', () => {
    const html = new Marked({ gfm: true }).parse(tableCodeStream(20_000, 4).text, { async: false });
    const text = html.replace(/<[^>]+>/g, '');
    for (const m of MARKDOWN_MARKERS) expect(text, m).not.toContain(m);
  });

  it('is deterministic for a seed', () => {
    expect(tableCodeStream(3_000, 4)).toEqual(tableCodeStream(3_000, 4));
    expect(tableCodeStream(3_000, 5).text).not.toBe(tableCodeStream(3_000, 4).text);
  });
});
