// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { splitBlocks } from '../../renderer/src/lib/markdown/blocks';
import { healTail } from '../../renderer/src/lib/markdown/heal';
import { StreamingCode } from '../../renderer/src/lib/markdown/code-stream';
import { IncrementalMarkdown } from '../../renderer/src/lib/markdown/incremental';
import { renderBlock } from '../../renderer/src/lib/markdown/render';
import { tableCodeStream } from '../fixtures/markdown-stream';
import { dom, withoutSegments } from '../helpers/markdown-dom';

describe('a code block streaming a segment at a time', () => {
  const text = tableCodeStream(1_800, 4).text;

  it('shows at every step what rendering the healed tail whole shows, and ends as a one-shot render', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    for (let at = 1; at < text.length; at += 61) {
      const now = text.slice(0, at);
      md.update(now, false);
      const blocks = splitBlocks(now).blocks;
      const tail = root.children[blocks.length - 1] as HTMLElement;
      // A streaming table's columns follow its finished rows only (not the row being written): its colgroup aside.
      const cols = (html: string) => html.replace(/<table width="\d+">\n<colgroup>.*?<\/colgroup>/, '<table>');
      expect(cols(withoutSegments(tail)), `at ${at}`).toBe(cols(dom(renderBlock(healTail(blocks.at(-1)!.raw), true))));
    }
    md.update(text, true);
    const whole = splitBlocks(text).blocks.map((b) => dom(renderBlock(b.raw)));
    expect([...root.children].map(withoutSegments)).toEqual(whole);
  });

  it('highlights lines once: frozen segments stay the same nodes, and the finished block replaces none', () => {
    const start = text.indexOf('```ts');
    const end = text.indexOf('\n```', start + 5) + 4;
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    md.update(text.slice(0, start + 1500), false);
    const code = root.querySelector('code.hljs')!;
    const first = code.firstChild;
    expect(first).not.toBeNull();
    for (let at = start + 1500; at <= end; at += 40) md.update(text.slice(0, at), false);
    md.update(text.slice(0, end) + '\n\nAfter.', false);
    expect(root.querySelector('code.hljs')).toBe(code);
    expect(code.firstChild).toBe(first);
  });
});

describe('a streamed block checked against its whole render when idle', () => {
  it('is rendered whole when its streamed markup differs', async () => {
    const text = 'Intro.\n\n```python\ndef f(x):\n    return x\n\n\ndef g(y):\n    return y\n```\n\nAfter.';
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    const end = text.indexOf('After');
    for (let at = 12; at < end; at += 3) md.update(text.slice(0, at), false);
    expect(root.querySelectorAll('.code-seg').length).toBeGreaterThan(1);
    const stale = vi.spyOn(StreamingCode.prototype, 'html', 'get').mockReturnValue('<p>stale</p>');
    md.update(text, true);
    stale.mockRestore();
    expect(root.querySelectorAll('.code-seg').length).toBeGreaterThan(1); // kept until idle
    await new Promise((r) => setTimeout(r, 10));
    expect(root.querySelectorAll('.code-seg')).toHaveLength(0);
    expect(root.children[1].innerHTML).toBe(dom(renderBlock(splitBlocks(text).blocks[1].raw)));
  });
});

describe('code in each language', () => {
  const text = tableCodeStream(40_000, 4).text;
  const fences = [...text.matchAll(/```(\w+)\n/g)];

  it.each(['python', 'ts', 'rust', 'go', 'sql', 'bash'])('%s: a streamed block ends as the same nodes', (lang) => {
    const at = fences.find((m) => m[1] === lang)!.index;
    const end = text.indexOf('\n```', at + 5) + 4;
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    const last = () => [...root.querySelectorAll('code.hljs')].at(-1)!;
    md.update(text.slice(0, at + 10), false);
    const code = last();
    for (let i = at + 10; i <= end; i += 11) md.update(text.slice(0, i), false);
    md.update(text.slice(0, end) + '\n\nAfter.', false);
    expect(last()).toBe(code);
    expect(code.querySelectorAll('.code-seg').length).toBeGreaterThan(10);
    expect(withoutSegments(code.closest('.md-block')!)).toBe(dom(renderBlock(text.slice(at, end))));
  });
});

describe('a table streaming a row at a time', () => {
  const text = tableCodeStream(1_800, 4).text;
  const start = text.indexOf('| Model |');
  const end = text.indexOf('\n\n', start);

  it('keeps finished rows as the same nodes, and the finished table replaces none', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    md.update(text.slice(0, start + 400), false);
    const table = root.querySelector('table')!;
    const first = root.querySelector('tbody tr');
    expect(first).not.toBeNull();
    for (let at = start + 400; at <= end; at += 7) md.update(text.slice(0, at), false);
    md.update(text.slice(0, end) + '\n\nAfter.', false);
    expect(root.querySelector('table')).toBe(table);
    expect(root.querySelector('tbody tr')).toBe(first);
    const rows = text.slice(start, end).split('\n').length - 2;
    expect(table.querySelectorAll('tbody tr')).toHaveLength(rows);
    const blocks = splitBlocks(text.slice(0, end) + '\n\nAfter.').blocks;
    expect(table.parentElement!.innerHTML).toBe(dom(renderBlock(blocks.at(-2)!.raw)));
  });

  it('moves columns for finished rows only, not for the row being written', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    const cols = () => root.querySelector('colgroup')!.outerHTML + root.querySelector('table')!.getAttribute('width');
    md.update('| Name | Notes |\n|---|---|\n| a | b |\n| c | a long', false);
    const before = cols();
    md.update('| Name | Notes |\n|---|---|\n| a | b |\n| c | a long note that keeps on going', false);
    expect(cols()).toBe(before);
    const done = '| Name | Notes |\n|---|---|\n| a | b |\n| c | a long note that keeps on going |\n';
    md.update(done + '| d', false);
    expect(cols()).not.toBe(before);
    md.update(done + '| d | e |\n\nAfter.', false);
    expect(root.firstElementChild!.innerHTML).toBe(dom(renderBlock(done + '| d | e |\n\n')));
  });

  it('renders afresh when the header changes under it', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    md.update('| A | B |\n|---|---|\n| 1 | 2 |\n| 3', false);
    const table = root.querySelector('table');
    md.update('| A | B | C |\n|---|---|---|\n| 1 | 2 | 3 |\n| 4', false);
    expect(root.querySelector('table')).not.toBe(table);
    expect(root.querySelectorAll('th')).toHaveLength(3);
    expect(root.querySelectorAll('tbody tr')).toHaveLength(2);
  });
});
