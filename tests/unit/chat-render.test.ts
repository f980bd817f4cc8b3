// @vitest-environment jsdom
import { Lexer } from 'marked';
import { describe, expect, it } from 'vitest';
import { splitBlocks } from '../../renderer/src/lib/markdown/blocks';
import { healTail } from '../../renderer/src/lib/markdown/heal';
import { IncrementalMarkdown, renderMarkdown } from '../../renderer/src/lib/markdown/incremental';
import { isInert, renderBlock } from '../../renderer/src/lib/markdown/render';
import { sanitizeUntrusted } from '../../renderer/src/lib/sanitize';
import { markdownStream } from '../fixtures/markdown-stream';
import { dom, withoutSegments } from '../helpers/markdown-dom';

/** Markdown of the kinds models write: every construct the streaming view must render like a one-shot render. */
const samples: Record<string, string> = {
  prose: '# Title\n\nSome **bold**, *italic*, `code` and a [link](https://example.com).\n\nSecond paragraph.\n',
  lists:
    '1. one\n2. two\n   - nested *a*\n   - nested **b**\n3. three\n\n- loose item\n\n- another loose item\n\nAfter the list.',
  code: 'Intro:\n\n```python\ndef f(x):\n    """doc"""\n\n    return x * 2\n```\n\n```ts\nconst a: number = 1;\n```\n\nDone.',
  table: 'Compare:\n\n| model | size |\n| --- | ---: |\n| llama | 8B |\n| qwen | 0.6B |\n\nThat is all.',
  quote: '> A quote with **bold**\n> over two lines\n\n> another\n\nText\n===\n\nSub\n---\n',
  mixed:
    '## Steps\n\n1. Install:\n\n   ```bash\n   pip install x\n   ```\n\n2. Run it.\n\n| a | b |\n|---|---|\n| `x` | ~~y~~ |\n\n---\n\nEnd with `tick',
  html: 'Raw <b>html</b> and <script>alert(1)</script> <img src=x onerror=alert(1)> stays inert.\n\n<div style="position:fixed">x</div>',
};

/** The whole text rendered as one document: the reference the block-by-block view must equal. */
const oneShot = (text: string) => dom(renderBlock(text, true));
const unwrapped = (root: HTMLElement) => [...root.children].map(withoutSegments).join('');

/** Streams `text` in chunks of varying size, as a model does, then marks it final. */
function stream(text: string, root: HTMLElement, sizes = [1, 3, 7, 2, 11]): IncrementalMarkdown {
  const md = new IncrementalMarkdown(root);
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    at = Math.min(text.length, at + sizes[i % sizes.length]);
    md.update(text.slice(0, at), false);
  }
  md.update(text, true);
  return md;
}

describe('streaming Markdown', () => {
  it.each(Object.keys(samples))('%s: streamed block by block, the final DOM equals a one-shot render', (name) => {
    const text = samples[name];
    const root = document.createElement('div');
    stream(text, root);
    expect(unwrapped(root)).toBe(oneShot(text));
    expect(dom(renderMarkdown(text))).toBe(oneShot(text));
  });

  it('a long finished message opened cold shows its end at once, then fills in to the same DOM', async () => {
    const text = Array.from({ length: 40 }, () => Object.values(samples).join('\n\n')).join('\n\n');
    expect(text.length).toBeGreaterThan(12_000);
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root, { progressive: true });
    md.update(text, true);
    const wrappers = [...root.children];
    const empty = wrappers.filter((w) => w.innerHTML === '').length;
    // The end is there in the first pass; earlier blocks wait, in place (their wrappers keep the order).
    expect(wrappers.at(-1)!.innerHTML).not.toBe('');
    expect(empty).toBeGreaterThan(0);
    expect(wrappers[0].innerHTML).toBe('');
    await md.whenComplete();
    expect(unwrapped(root)).toBe(oneShot(text));
    // A change while it fills in renders what is left at once.
    const again = new IncrementalMarkdown(document.createElement('div'), { progressive: true });
    again.update(text, true);
    again.update(`${text}\n\nOne more line.`, true);
    await again.whenComplete();
  });

  it('splitting incrementally gives the same blocks as splitting the whole text', () => {
    for (const text of Object.values(samples)) {
      let prev = splitBlocks('');
      for (let at = 1; at <= text.length; at++) {
        prev = splitBlocks(text.slice(0, at), prev);
        expect(prev.blocks, `${JSON.stringify(text.slice(0, at))}`).toEqual(splitBlocks(text.slice(0, at)).blocks);
      }
    }
  });

  it('finished blocks are rendered once: later text and completion leave their elements alone', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    md.update('First paragraph.\n\n```js\nlet a = 1;\n```\n\nTail **bo', false);
    const [first, code] = [...root.children] as HTMLElement[];
    const firstHtml = first.innerHTML;
    first.dataset.mark = 'kept';
    md.update('First paragraph.\n\n```js\nlet a = 1;\n```\n\nTail **bold** and more.', false);
    md.update('First paragraph.\n\n```js\nlet a = 1;\n```\n\nTail **bold** and more.', true);
    expect(root.children[0]).toBe(first);
    expect(root.children[1]).toBe(code);
    expect(first.dataset.mark).toBe('kept');
    expect(first.innerHTML).toBe(firstHtml);
    expect(root.children).toHaveLength(3);
  });

  it('only the open tail block carries the caret class, and the final text none', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    const tails = () => [...root.children].map((c) => c.classList.contains('md-tail'));
    md.update('One.\n\nTwo', false);
    expect(tails()).toEqual([false, true]);
    md.update('One.\n\nTwo.\n\n- three', false);
    expect(tails()).toEqual([false, false, true]);
    md.update('One.\n\nTwo.\n\n- three', true);
    expect(tails()).toEqual([false, false, false]);
  });

  it('completion changes nothing on screen when the tail needed no healing', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    md.update('A.\n\nB is done.', false);
    const tail = root.children[1] as HTMLElement;
    const before = tail.innerHTML;
    tail.firstElementChild!.setAttribute('data-probe', '1');
    md.update('A.\n\nB is done.', true);
    expect(tail.firstElementChild!.getAttribute('data-probe')).toBe('1');
    expect(tail.innerHTML.replace(' data-probe="1"', '')).toBe(before);
  });

  it('a rewritten text (regenerate) is rendered from scratch', () => {
    const root = document.createElement('div');
    const md = new IncrementalMarkdown(root);
    md.update('Old answer.\n\nWith two blocks.', true);
    md.update('New.', true);
    expect(unwrapped(root)).toBe(oneShot('New.'));
  });
});

describe('healed tail', () => {
  const shown = (partial: string) => {
    const el = document.createElement('div');
    el.innerHTML = renderBlock(healTail(partial), true);
    return el;
  };

  it('closes bold, italic, inline code and strikethrough so no raw marker shows', () => {
    for (const partial of ['Some **bol', 'Some *ital', 'Run `npm i', 'It is ~~wro', 'Both ***strong']) {
      const el = shown(partial);
      expect(el.textContent, partial).not.toMatch(/[*`~]/);
    }
    expect(shown('Some **bol').querySelector('strong')?.textContent).toBe('bol');
  });

  it('shows a half-written link as its text until the URL is complete', () => {
    for (const partial of ['See [the docs', 'See [the docs](https://exa']) {
      const el = shown(partial);
      expect(el.textContent?.trim(), partial).toBe('See the docs');
      expect(el.querySelector('a'), partial).toBeNull();
    }
  });

  it('gives a table header its separator row before it arrives', () => {
    const el = shown('| model | size |');
    expect(el.querySelectorAll('th')).toHaveLength(2);
    expect(el.textContent).not.toContain('|');
  });

  it('leaves finished Markdown as it is', () => {
    for (const text of Object.values(samples).slice(0, 5)) expect(shown(text).innerHTML).toBe(oneShot(text));
  });

  it('keeps untrusted markup inert in every block', () => {
    const root = document.createElement('div');
    stream(samples.html, root);
    expect(root.querySelector('script')).toBeNull();
    expect(root.querySelector('[onerror]')).toBeNull();
  });

  it('markup that skips the sanitizer is markup the sanitizer leaves as it is', () => {
    const texts = [
      ...Object.values(samples),
      markdownStream(4000, 5).text,
      '- [ ] a task\n- [x] done',
      'Raw <b>x</b>, a [link](https://example.com), ![img](https://example.com/i.png), <https://example.com>',
      // One link a block, so each web link's own markup is checked against the sanitizer's.
      [
        '[**bold** `code` &copy; text](https://hf.co/a?b=1&c="2" "a title")',
        "see https://x.y/p?q=<1>&r='2'",
        '[hf.co names its host](https://hf.co/x)',
        '[ünï](https://exämple.com/a%20b)',
        '<http://x.y>, www.example.com',
        '[rel](/models)',
        '[js](javascript:alert(1))',
        '[mail](mailto:a@b.c)',
      ].join('\n\n'),
    ];
    let skipped = 0;
    for (const text of texts)
      for (const { raw } of splitBlocks(text).blocks)
        for (const src of [raw, healTail(raw.slice(0, Math.ceil(raw.length / 2)))]) {
          // Markup the sanitizer made is not judged again: a held image's button is its own, refused from content.
          if (!isInert(Lexer.lex(src, { gfm: true }))) continue;
          skipped++;
          const html = renderBlock(src, true);
          expect(dom(sanitizeUntrusted(html)), src).toBe(dom(html));
        }
    expect(skipped).toBeGreaterThan(50);
  });

  it('raw HTML, links but to http(s) pages, images and task lists always go through the sanitizer', () => {
    for (const src of [
      'a <b>x</b>',
      '<div>x</div>',
      '[l](/relative)',
      '[l](javascript:alert(1))',
      '[l](mailto:a@b.c)',
      '[<b>l</b>](https://x.y)',
      '![i](https://x.y/i.png)',
      '- [ ] task',
    ])
      expect(isInert(Lexer.lex(src, { gfm: true })), src).toBe(false);
    for (const src of ['[l](https://x.y)', 'see https://x.y', '<http://x.y/a>'])
      expect(isInert(Lexer.lex(src, { gfm: true })), src).toBe(true);
  });
});
