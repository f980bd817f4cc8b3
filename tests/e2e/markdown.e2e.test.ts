import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { syntheticExport } from '../fixtures/conversation';
import { END_MARKER, markdownStream } from '../fixtures/markdown-stream';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { openApp, screenshot, type WebApp } from './harness';

/** A reply with every construct, cut into chunks that split its markers (`*` + `*bold`, `](` + `url)`…). */
const REPLY = [
  '## Setup\n\nInstall it with *',
  '*pip** and run `hub',
  'desk` — see [the do',
  'cs](https://example.com/d',
  'ocs).\n\n1. First\n2. Second with ~',
  '~old~~ text\n   - nested\n\n| model | si',
  'ze |\n| --- | ---: |\n| llama | 8B |\n| qw',
  'en | 0.6B |\n\n> A quote with _emph',
  'asis_\n\n```py',
  'thon\ndef f(x):\n    return x * 2\n```\n\nDone, *',
  '*really**.',
];

/** Text a reader would see as stray Markdown in a frame: markers the finished reply does not show. */
const RAW = /\*\*|~~|\]\(|\|\s*---|^```|`hub/m;

describe('streaming Markdown in Chromium', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.chunkIntervalMs = 40;
    ollama.chatScript = () => ({ content: REPLY });
    ({ app, browser, page, errors } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  it('no frame shows half-finished Markdown, and completing the reply keeps what is on screen', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    // Sample the streaming reply's visible text on every animation frame until it completes.
    await page.evaluate(() => {
      const w = window as unknown as { frames: string[]; body?: Element; sampling: boolean };
      w.frames = [];
      w.sampling = true;
      const tick = () => {
        const el = document.querySelector('[data-testid="msg-streaming"]');
        if (el) {
          w.body ??= el;
          w.frames.push((el as HTMLElement).innerText);
        }
        if (w.sampling) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.getByTestId('composer').fill('Show me markdown');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').last();
    await reply.and(page.locator('[data-status="complete"]')).waitFor();
    const { frames, same } = await page.evaluate(() => {
      const w = window as unknown as { frames: string[]; body?: Element; sampling: boolean };
      w.sampling = false;
      const final = document.querySelector('[data-testid="msg-assistant"]:last-of-type .msg-body');
      return { frames: w.frames, same: !!w.body && w.body === final };
    });
    // How many frames a loaded machine paints varies; every one painted mid-stream is checked.
    expect(frames.length).toBeGreaterThan(0);
    const raw = frames.filter((f) => RAW.test(f));
    expect(raw, `frames with raw markers:\n${raw.join('\n---\n')}`).toEqual([]);
    // The element that streamed is the element that shows the final reply: completion rebuilt nothing.
    expect(same).toBe(true);
    await expect.poll(() => reply.locator('table th').count()).toBe(2);
    // Header words stay whole: a column sized from its cells leaves room for bold text ("model", not "mode" + "l").
    const lines = await reply.locator('table th').evaluateAll((ths) =>
      ths.map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return range.getClientRects().length;
      }),
    );
    expect(lines).toEqual([1, 1]);
    expect(await reply.locator('a[href="https://example.com/docs"]').count()).toBe(1);
    expect(await reply.locator('.code-block .hljs-keyword').count()).toBeGreaterThan(0);
    expect(await reply.locator('del').textContent()).toBe('old');
    await screenshot(page, 'chat-markdown');
    expect(errors).toEqual([]);
  });

  it('a long reply is followed to its end in every painted frame; scrolling up stops following', async () => {
    ollama.chunkIntervalMs = 2;
    // At least 12 s of stream (6,000 chunks 2 ms apart): longer than the servers' 10 s header timeout, which once cut
    // long replies in the web mode, and long enough for a loaded machine to paint the 20 frames sampled below.
    ollama.chatScript = () => ({ content: markdownStream(6000).chunks });
    await page.getByTestId('new-chat').click();
    const list = page.getByTestId('message-list');
    // After each paint (a task queued from the frame), how far the list is from its bottom while it overflows.
    await page.evaluate(() => {
      const w = window as unknown as { gaps: number[]; sampling: boolean };
      w.gaps = [];
      w.sampling = true;
      const afterPaint = () =>
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => {
            const el = document.querySelector('[data-testid="message-list"]');
            if (el && document.querySelector('[data-testid="msg-streaming"]') && el.scrollHeight > el.clientHeight)
              w.gaps.push(el.scrollHeight - el.scrollTop - el.clientHeight);
            if (w.sampling) afterPaint();
          };
          ch.port2.postMessage(0);
        });
      afterPaint();
    });
    await page.getByTestId('composer').fill('A long one');
    await page.getByTestId('composer').press('Enter');
    await page.waitForFunction(() => (window as unknown as { gaps: number[] }).gaps.length >= 20);
    const gaps = await page.evaluate(() => {
      const w = window as unknown as { gaps: number[]; sampling: boolean };
      w.sampling = false;
      return w.gaps;
    });
    // Within the distance the list still counts as "at the bottom" (STICK_PX in MessageList).
    expect(gaps.filter((g) => g >= 48)).toEqual([]);

    // Scrolled up while it streams: the list stays where the reader put it, and offers the way back.
    expect(await page.getByTestId('msg-streaming').count()).toBe(1);
    expect(await page.locator('[data-testid="msg-streaming"] .md-tail').count()).toBe(1);
    await screenshot(page, 'chat-markdown-streaming');
    await list.evaluate((el) => (el.scrollTop = 0));
    await page.getByTestId('jump-latest').waitFor();
    await page.getByTestId('msg-assistant').last().and(page.locator('[data-status="complete"]')).waitFor();
    expect(await list.evaluate((el) => el.scrollTop)).toBe(0);
    // The button takes no room: hiding it (as Send and "Latest" do) must not shorten the list, or the browser's clamp
    // of the scroll position reads as the reader moving up.
    const withButton = await list.evaluate((el) => el.scrollHeight);
    await page.getByTestId('jump-latest').click();
    await expect.poll(() => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(48);
    await expect.poll(() => page.getByTestId('jump-latest').count()).toBe(0);
    expect(await list.evaluate((el) => el.scrollHeight)).toBe(withButton);

    // Scrolled up again, then Send: the list follows the new question and its reply; nothing hides them.
    ollama.chatScript = () => ({ content: REPLY });
    await list.evaluate((el) => (el.scrollTop = 0));
    await page.getByTestId('jump-latest').waitFor();
    await page.getByTestId('composer').fill('And a short one');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('msg-assistant').nth(1).and(page.locator('[data-status="complete"]')).waitFor();
    await expect.poll(() => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(48);
    expect(await page.getByTestId('jump-latest').count()).toBe(0);
    await expect.poll(() => page.getByText('And a short one').isVisible()).toBe(true);
    await screenshot(page, 'chat-follows-send');
    expect(errors).toEqual([]);
  });

  it('a long finished message opened cold: find-in-page reaches its start, and selecting it copies all of it', async () => {
    const text = markdownStream(20_000, 3).text;
    const exp = syntheticExport(2, 'Long finished reply');
    exp.messages[1] = { ...exp.messages[1], content: text };
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exp)) });
    await page.getByTestId('thread-title').getByText('Long finished reply').waitFor();
    const body = page.getByTestId('msg-markdown').last();
    await body.getByText(END_MARKER.trim()).waitFor();
    // Every block filled in, the earliest far out of view.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="msg-markdown"] > .md-block')].every((b) => b.childElementCount),
    );
    const list = page.getByTestId('message-list');
    expect(await list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(48);
    // Find-in-page finds the first heading, far above the view, and selects it there.
    // Chromium's window.find (not in TypeScript's DOM types): the page's own text search, wrapping around.
    const find = (s: string) => (window as unknown as { find(...a: unknown[]): boolean }).find(s, false, false, true);
    expect(await page.evaluate(find, 'Section 1:')).toBe(true);
    expect(
      await body.evaluate((el) => {
        const at = getSelection()!.anchorNode;
        return !!at && el.querySelector('h2')!.contains(at);
      }),
    ).toBe(true);
    // Selecting the whole message copies its whole text, the blocks never shown included.
    const copied = await body.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = getSelection()!;
      sel.removeAllRanges();
      sel.addRange(range);
      return { selected: sel.toString(), text: el.textContent ?? '' };
    });
    const words = (s: string) => s.replace(/\s+/g, ' ').trim();
    expect(words(copied.selected)).toContain('Section 1:');
    expect(words(copied.selected)).toContain(END_MARKER.trim());
    expect(words(copied.selected).length).toBeGreaterThan(words(copied.text).length * 0.9);
    await screenshot(page, 'chat-markdown-long-found');
    expect(errors).toEqual([]);
  });
});
