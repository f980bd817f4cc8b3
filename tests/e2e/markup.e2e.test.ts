import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { codeFont, openApp, screenshot, type WebApp } from './harness';

/** A model reply that tries every way markup can escape its message: overlays, styles, scripts, odd links. */
const PAYLOAD = [
  'Reply with payloads.',
  '',
  '<div style="position:fixed;inset:0;z-index:9999;background:red" class="modal-backdrop overlay" id="ovl">OVERLAY</div>',
  '<style>body{background:rgb(255,0,0) !important} .msg-body{position:fixed}</style>',
  '<dialog open>DIALOG</dialog><div popover="manual" id="pop">POP</div>',
  '<img src="x" onerror="window.__pwned=1"><svg><a href="javascript:window.__pwned=3"><text>svg</text></a></svg>',
  '<span class="hljs-keyword code-block sticky-top">kw</span><p data-copy="1" data-x="y">data</p>',
  '',
  '[click me](https://evil.example/phish) and [app](lmstudio://open?model=x) and [js](javascript:window.__pwned=2)',
  'and <a href="data:text/html,hi">data link</a> and [rel](/settings) and <https://huggingface.co/models>',
  '',
  '```js',
  'const x = "<b>not bold</b>";',
  '```',
].join('\n');

/** What IncrementalMarkdown sets on a block wrapper: its estimated height, until it is filled in. */
const SIZING = ['min-height'];

describe('untrusted markup is inert (chat reply from the Ollama fixture, in Chromium)', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = () => ({ content: tokens(PAYLOAD) });
    ({ app, browser, page } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  it('no overlay, no style, no script, links only to http(s) and showing their real target', async () => {
    const bodyBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    await page.getByTestId('composer').fill('show me');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]'));
    await reply.waitFor();
    await reply.getByText('Reply with payloads.').waitFor();
    await screenshot(page, 'markup-inert');

    const facts = await reply.evaluate((root, sizing) => {
      const els = [...root.querySelectorAll('.msg-body *')];
      const outsideCode = els.filter((e) => !e.closest('.code-block'));
      return {
        positioned: outsideCode
          .filter((e) => !['static', 'relative'].includes(getComputedStyle(e).position))
          .map((e) => e.outerHTML.slice(0, 80)),
        // The app sizes its own block wrappers (their estimated height); nothing else may carry a style.
        styled: els
          .filter((e) => e.hasAttribute('style'))
          .filter(
            (e) =>
              !e.matches('.msg-body > .md-block') || [...(e as HTMLElement).style].some((p) => !sizing.includes(p)),
          )
          .map((e) => e.outerHTML.slice(0, 80)),
        styleTags: root.querySelectorAll('style, link, dialog, [popover], [id], [data-x], [data-copy]').length,
        classes: [...new Set(els.flatMap((e) => [...e.classList]))],
        links: [...root.querySelectorAll('.msg-body a')].map((a) => ({
          text: a.textContent,
          href: a.getAttribute('href'),
          title: a.getAttribute('title'),
        })),
        bodyBg: getComputedStyle(document.body).backgroundColor,
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        topLayer: document.querySelectorAll(':popover-open, dialog[open]').length,
      };
    }, SIZING);
    expect(facts.positioned).toEqual([]);
    expect(facts.styled).toEqual([]);
    expect(facts.styleTags).toBe(0);
    // Only the app's own classes: its block wrappers, code blocks and highlight.js scopes.
    for (const c of facts.classes)
      expect(c).toMatch(/^(md-block|code-block|code-head|code-copy|code-seg|hljs(-[a-z0-9_]+)*|[a-z]+_+|language-.+)$/);
    expect(facts.classes).not.toContain('modal-backdrop');
    expect(facts.bodyBg).toBe(bodyBg);
    expect(facts.pwned).toBeUndefined();
    expect(facts.topLayer).toBe(0);

    const byText = (t: string) => facts.links.find((l) => l.text?.startsWith(t))!;
    expect(byText('click me')).toEqual({
      text: 'click me (evil.example)',
      href: 'https://evil.example/phish',
      title: 'https://evil.example/phish',
    });
    for (const t of ['app', 'js', 'data link', 'rel', 'svg']) {
      const l = facts.links.find((x) => x.text?.startsWith(t));
      if (l) expect(l.href, t).toBeNull();
    }
    expect(facts.links.filter((l) => l.href !== null).every((l) => /^https?:\/\//.test(l.href!))).toBe(true);
    expect(byText('https://huggingface.co/models')).toMatchObject({ href: 'https://huggingface.co/models' });
    // The code block keeps its text literally and the app's own classes.
    await expect.poll(() => reply.locator('.code-block code').textContent()).toContain('"<b>not bold</b>"');
    // …in the app's monospace, the block's own size.
    const font = await codeFont(reply.locator('.code-block code'));
    expect(font.code).toBe(font.block);
    expect(font.code).not.toMatch(/^monospace /);
  });
});
