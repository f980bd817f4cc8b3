// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { splitBlocks } from '../../renderer/src/lib/markdown/blocks';
import { healTail } from '../../renderer/src/lib/markdown/heal';
import { IncrementalMarkdown } from '../../renderer/src/lib/markdown/incremental';
import { renderBlock } from '../../renderer/src/lib/markdown/render';
import { tableCodeStream } from '../fixtures/markdown-stream';

/** HTML as the DOM holds it, so equal DOMs compare equal whatever their source spelling. */
function dom(html: string): string {
  const el = document.createElement('div');
  el.innerHTML = html;
  return el.innerHTML;
}

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
      expect(tail.innerHTML, `at ${at}`).toBe(dom(renderBlock(healTail(blocks.at(-1)!.raw), true)));
    }
    md.update(text, true);
    const whole = splitBlocks(text).blocks.map((b) => dom(renderBlock(b.raw)));
    expect([...root.children].map((c) => c.innerHTML)).toEqual(whole);
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
