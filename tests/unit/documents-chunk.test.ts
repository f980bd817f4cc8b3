import { describe, expect, it } from 'vitest';
import { chunk } from '../../electron/main/services/documents/chunk';
import { extract } from '../../electron/main/services/documents/extract/extract';
import { estimateTokens } from '../../electron/main/services/documents/tokens';
import type { DocChunk, ExtractedDoc } from '../../electron/main/services/documents/types';
import { pdfBytes } from '../fixtures/documents/pdf';

const utf8 = (s: string) => new TextEncoder().encode(s);
const md = (text: string) => extract({ name: 'doc.md', bytes: utf8(text) });
const sentence = (i: number) => `Sentence number ${i} says something about topic ${i % 7}.`;
const prose = (from: number, n: number) => Array.from({ length: n }, (_, i) => sentence(from + i)).join(' ');

/** What every chunking must hold: within the target, its text the doc's range (after a repeated header), counted. */
function checkInvariants(doc: ExtractedDoc, chunks: DocChunk[], target: number): void {
  for (const c of chunks) {
    expect(c.tokens).toBe(estimateTokens(c.text));
    expect(c.tokens).toBeLessThanOrEqual(target);
    expect(c.text.endsWith(doc.text.slice(c.start, c.end))).toBe(true);
    expect(c.text.trim()).toBe(c.text);
  }
}

describe('estimateTokens: one estimate everywhere', () => {
  it('counts CJK characters one each, other text four characters a token, a whitespace run as one character', () => {
    expect(estimateTokens('日本語のテキスト')).toBe(8);
    expect(estimateTokens('한국어')).toBe(3);
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('abcd    \n\n  efgh')).toBe(3); // 8 letters + one run = 9 chars → 2.25 → 3
    expect(estimateTokens('東京 is big')).toBe(4); // 2 + (1 + 2 + 1 + 3) / 4 = 3.75
    expect(estimateTokens('')).toBe(0);
  });
});

describe('chunk', () => {
  it('follows headings: no chunk crosses a section, each carries its heading path', async () => {
    const doc = await md(`# Alpha\n${prose(0, 30)}\n\n## Beta\n${prose(100, 4)}\n\n# Gamma\n${prose(200, 30)}\n`);
    const chunks = chunk(doc, { targetTokens: 120, overlapTokens: 20 });
    checkInvariants(doc, chunks, 120);
    const paths = [...new Set(chunks.map((c) => c.headings.join(' > ')))];
    expect(paths).toEqual(['Alpha', 'Alpha > Beta', 'Gamma']);
    for (const c of chunks) {
      const s = doc.sections.find((x) => x.headings.join(' > ') === c.headings.join(' > '))!;
      expect(c.start).toBeGreaterThanOrEqual(s.start);
      expect(c.end).toBeLessThanOrEqual(s.end);
    }
    expect(chunks.filter((c) => c.headings.join() === 'Alpha').length).toBeGreaterThan(1);
    expect(chunks.find((c) => c.headings.join() === 'Alpha,Beta')!.text).toMatch(/^## Beta\nSentence number 100/);
  });

  it('keeps a code block whole when it fits, rather than filling the chunk with half of it', async () => {
    const code = '```ts\n' + Array.from({ length: 12 }, (_, i) => `const v${i} = compute(${i});`).join('\n') + '\n```';
    const doc = await md(`${prose(0, 6)}\n\n${code}\n\n${prose(10, 2)}\n`);
    const chunks = chunk(doc, { targetTokens: 140, overlapTokens: 0 });
    checkInvariants(doc, chunks, 140);
    expect(estimateTokens(code)).toBeLessThanOrEqual(140);
    const holders = chunks.filter((c) => c.text.includes('const v'));
    expect(holders).toHaveLength(1);
    expect(holders[0].text).toContain(code);
  });

  it('splits a code block too big for one chunk at line ends', async () => {
    const lines = Array.from({ length: 80 }, (_, i) => `  result.push(transform(item${i}, options));`);
    const doc = await extract({ name: 'big.ts', bytes: utf8(lines.join('\n')) });
    const chunks = chunk(doc, { targetTokens: 100, overlapTokens: 15 });
    checkInvariants(doc, chunks, 100);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) for (const l of c.text.split('\n')) expect(lines).toContain(`  ${l.trim()}`);
    expect(chunks[chunks.length - 1].text.endsWith(lines[79].trim())).toBe(true);
  });

  it('repeats a split table’s header row (and rule) before every part, and loses no row', async () => {
    const header = '| id | name | city |\n| --- | --- | --- |';
    const rows = Array.from({ length: 60 }, (_, i) => `| ${i} | person ${i} | town ${i % 9} |`);
    const doc = await md(`Intro.\n\n${header}\n${rows.join('\n')}\n`);
    const chunks = chunk(doc, { targetTokens: 80, overlapTokens: 12 });
    checkInvariants(doc, chunks, 80);
    const parts = chunks.filter((c) => c.text.includes('| person'));
    expect(parts.length).toBeGreaterThan(3);
    expect(parts[0].text).toMatch(/^Intro\.\n\n\| id/); // the table starts under the paragraph before it
    for (const p of parts.slice(1)) expect(p.text.startsWith(`${header}\n| `)).toBe(true);
    const seen = new Set(parts.flatMap((p) => p.text.split('\n').filter((l) => l.includes('person'))));
    expect([...seen].sort()).toEqual([...rows].sort());
  });

  it('keeps a CSV’s header with each chunk', async () => {
    const csv = ['sku,product,price', ...Array.from({ length: 150 }, (_, i) => `${i},widget ${i},${i * 3}.99`)].join(
      '\n',
    );
    const doc = await extract({ name: 'prices.csv', bytes: utf8(csv) });
    const chunks = chunk(doc, { targetTokens: 90, overlapTokens: 10 });
    checkInvariants(doc, chunks, 90);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.text.startsWith('| sku | product | price |\n| --- | --- | --- |\n')).toBe(true);
    expect(chunks.some((c) => c.text.includes('| 149 | widget 149 | 447.99 |'))).toBe(true);
  });

  it('counts and splits CJK text: at 。 between sentences, and a long run without one by the estimate', async () => {
    const zh = Array.from({ length: 40 }, (_, i) => `这是第${i}个句子，用来测试中文的分块方法。`).join('');
    const doc = await md(`# 中文\n${zh}\n\n${'字'.repeat(300)}\n`);
    const chunks = chunk(doc, { targetTokens: 64, overlapTokens: 0 });
    checkInvariants(doc, chunks, 64);
    const prose = chunks.filter((c) => c.text.includes('句子'));
    for (const c of prose.slice(0, -1)) expect(c.text.endsWith('。')).toBe(true);
    const run = chunks.filter((c) => c.text.includes('字字'));
    expect(run.length).toBe(Math.ceil(300 / 64));
    expect(run.map((c) => c.text).join('')).toBe('字'.repeat(300));
    expect(chunks.every((c) => c.headings[0] === '中文')).toBe(true);
  });

  it('starts each chunk after the first of a section with the end of the one before, from a sentence start', async () => {
    const doc = await md(`# One\n${prose(0, 40)}\n\n# Two\n${prose(500, 3)}\n`);
    const chunks = chunk(doc, { targetTokens: 100, overlapTokens: 25 });
    checkInvariants(doc, chunks, 100);
    const one = chunks.filter((c) => c.headings[0] === 'One');
    expect(one.length).toBeGreaterThan(2);
    for (let i = 1; i < one.length; i++) {
      const [a, b] = [one[i - 1], one[i]];
      expect(b.start).toBeLessThan(a.end); // overlap present
      expect(b.start).toBeGreaterThan(a.start);
      const shared = doc.text.slice(b.start, a.end);
      expect(a.text.endsWith(shared) && b.text.startsWith(shared)).toBe(true);
      expect(estimateTokens(shared)).toBeLessThanOrEqual(25);
      expect(shared).toMatch(/^Sentence number \d+/);
    }
    // never across sections: the first chunk of "Two" starts at its heading
    expect(chunks.find((c) => c.headings[0] === 'Two')!.text.startsWith('# Two')).toBe(true);
  });

  it('gives PDF chunks their page numbers', async () => {
    const page = (p: number) =>
      Array.from({ length: 12 }, (_, i) => `Page ${p} line ${i} of the annual report.`).join('\n');
    const doc = await extract({ name: 'r.pdf', bytes: pdfBytes([page(1), page(2), page(3)]) });
    const chunks = chunk(doc, { targetTokens: 60, overlapTokens: 10 });
    checkInvariants(doc, chunks, 60);
    expect([...new Set(chunks.map((c) => c.page))]).toEqual([1, 2, 3]);
    for (const c of chunks) for (const m of c.text.matchAll(/Page (\d+) line/g)) expect(Number(m[1])).toBe(c.page);
  });
});
