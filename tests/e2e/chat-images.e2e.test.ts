import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { openApp, screenshot, type WebApp } from './harness';

/** A 1×1 PNG: what the Hub's image host answers in this test. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const CHART = 'https://huggingface.co/e2e-fixture/chart.png?data=from-the-conversation';
const OTHER = 'https://cdn-lfs.hf.co/e2e-fixture/other.png';

/** A reply with two images on hosts the CSP allows (it lets model cards show the Hub's images). */
const REPLY = `Here is the chart:\n\n![the chart](${CHART})\n\nand another ![other](${OTHER}) one.`;

describe('chat loads no remote image until the user asks (Ollama fixture, in Chromium)', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  /** Every image request the page made to the Hub's hosts, as the network saw it. */
  const requested: string[] = [];

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = () => ({ content: tokens(REPLY) });
    ({ app, browser, page } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
    await page.route(/^https:\/\/([a-z0-9-]+\.)*(huggingface\.co|hf\.co)\//, (route) => {
      requested.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'image/png', body: PNG });
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  it('a streamed reply and the conversation opened again show buttons; a click loads that image only', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    await page.getByTestId('composer').fill('show me a chart');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]'));
    await reply.getByRole('button', { name: 'the chart Load image from huggingface.co' }).waitFor();
    expect(requested).toEqual([]);

    // Opened again from storage (as an imported conversation is): still nothing fetched.
    await page.reload();
    const chart = reply.getByRole('button', { name: 'the chart Load image from huggingface.co' });
    await chart.waitFor();
    await reply.getByRole('button', { name: 'other Load image from cdn-lfs.hf.co' }).waitFor();
    expect(requested).toEqual([]);
    expect(await reply.locator('img').count()).toBe(0);
    await screenshot(page, 'chat-images-held');

    // From the keyboard: the button takes the focus and Enter loads the one image.
    await chart.focus();
    await page.keyboard.press('Enter');
    const img = reply.getByRole('img', { name: 'the chart' });
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1);
    expect(requested).toEqual([CHART]);
    await reply.getByRole('button', { name: 'other Load image from cdn-lfs.hf.co' }).waitFor();
    await screenshot(page, 'chat-images-one-loaded');
  });
});
