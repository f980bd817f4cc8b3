import { describe, expect, it } from 'vitest';
import { inertMarkdown } from '@shared/inert-markdown';

describe('inertMarkdown (chat export)', () => {
  it('turns raw HTML into text', () => {
    const md =
      'Hi <img src=x onerror="alert(1)"> and <style>body{display:none}</style>\n<div style="position:fixed;inset:0">x</div>';
    const out = inertMarkdown(md);
    expect(out).not.toMatch(/<[a-z/]/i);
    expect(out).toBe(
      'Hi &lt;img src=x onerror="alert(1)"> and &lt;style>body{display:none}&lt;/style>\n&lt;div style="position:fixed;inset:0">x&lt;/div>',
    );
  });

  it('keeps code spans, fenced and indented code byte for byte', () => {
    const md = [
      'Use `<div>` or ``a ` <b> ``.',
      '```html',
      '<script>alert(1)</script>',
      '```',
      '',
      '    <pre>indented</pre>',
      '~~~',
      '<i>tilde</i>',
      '~~~',
      'after <b>x</b>',
    ].join('\n');
    expect(inertMarkdown(md)).toBe(md.replace('after <b>x</b>', 'after &lt;b>x&lt;/b>'));
  });

  it('an unclosed backtick or fence does not leave HTML live after it', () => {
    expect(inertMarkdown('a ` <b>x</b>')).toBe('a ` &lt;b>x&lt;/b>');
    // An unclosed fence runs to the end: everything after it is code, which viewers show literally.
    expect(inertMarkdown('```\n<b>x</b>')).toBe('```\n<b>x</b>');
  });

  it('keeps plain Markdown as it is', () => {
    const md = '# Title\n\n- **bold** and [link](https://huggingface.co) 3 > 2\n\n> quote';
    expect(inertMarkdown(md)).toBe(md);
  });
});
