import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const CHAT = 'meta-llama/Llama-3.1-8B-Instruct';
const GGUF = 'unsloth/Llama-3.2-1B-Instruct-GGUF';

/**
 * axe-core on every screen and state, in the light and the dark theme: 0 critical and 0 serious violations.
 * Each state is reached as a user reaches it; the findings of a state are collected, and each test fails listing them
 * (rule id, impact, help, target selectors).
 */
describe('accessibility: axe-core on every screen (web mode, Chromium)', () => {
  let hub: HubFixture;
  let ollama: OllamaFixture;
  let ollamaUp = true;
  let app: WebApp;
  let browser: Browser;
  let page: Page;

  const check = async (state: string) => {
    // Snippets being regenerated and Hub rows being refreshed are dimmed for a moment: judge the settled page.
    await page.locator('.sw-stale, .hub-list.stale').first().waitFor({ state: 'detached' });
    found.push(...(await checkBothThemes(page, state)));
  };
  // Every state of a test is checked before the test fails, so one run lists all its findings.
  let found: string[] = [];
  afterEach(() => {
    const all = found.join('\n');
    found = [];
    expect(all).toBe('');
  });
  const search = async (q: string) => page.locator('#catalogue-search').fill(q);

  beforeAll(async () => {
    hub = await startHubFixture();
    ollama = await startOllamaFixture({
      models: [fixtureModel('llama3.2'), fixtureModel('qwen3:8b', { family: 'qwen3' })],
      registry: { 'tinyllama:latest': { layers: [637699456, 98, 8192] } },
      progressIntervalMs: 150,
      progressSteps: 400,
    });
    ollama.chunkIntervalMs = 15;
    ollama.chatScript = (req) => {
      const last = req.messages!.at(-1)!.content ?? '';
      if (last.startsWith('slow')) return { content: Array.from({ length: 600 }, (_, i) => `Sentence ${i}. `) };
      return { content: tokens('A short **answer**.\n\n```js\nconst x = 1;\n```\n\nDone.') };
    };
    ({ app, browser, page } = await openApp({
      firstRun: true,
      env: { HF_ENDPOINT: hub.url, OLLAMA_HOST: ollama.url },
    }));
    // Tests never reach the internet: card images on the Hub's real CDN get a 1×1 PNG from here.
    await page.route(/^https:\/\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
    if (ollamaUp) await ollama?.stop();
  });

  it('first-run screen', async () => {
    await page.getByTestId('first-run').waitFor();
    await check('first-run');
    await page.getByRole('button', { name: /Use the Hugging Face Hub/ }).click();
    await page.getByTestId('hub-list-models').locator('a.hub-row').first().waitFor();
  });

  it('catalogue with the Hub: home, results, empty result, Hub error', async () => {
    await check('catalogue home (Hub)');
    await search('whisper');
    // The home list may already show this row: wait for the Hub's answer to this query, not the row (a search that
    // fires during the check dims the rows it replaces).
    await expect.poll(() => hub.requestsTo('/api/models').some((r) => r.query.get('search') === 'whisper')).toBe(true);
    await page.locator('[data-testid="hub-list-models"][aria-busy="false"]').waitFor();
    await page.getByTestId('hub-list-models').locator('a[data-id="openai/whisper-large-v3"]').waitFor();
    await check('search results (Hub)');
    await search('zzqqxxnothing');
    await page.getByTestId('hub-empty').waitFor();
    await check('search: empty result');
    hub.fail('/api/models', { status: 503, body: { error: 'Service Unavailable' } });
    await search('bert-base');
    await page.getByText(/having trouble \(HTTP 503\)/).waitFor();
    await check('search: Hub error');
    hub.clearFailures();
    await search('speech');
    await page.getByTestId('hub-tab-datasets').click();
    const datasets = page.getByTestId('hub-list-datasets').locator('a.hub-row');
    await datasets.first().waitFor();
    await check('search results: datasets');
    await datasets.first().click();
    await page.getByTestId('repo-tabs').waitFor();
    await check('dataset page');
    await page.getByTestId('hub-tab-models').waitFor({ state: 'detached' });
    await page.goto(`${app.origin}/#/catalogue`);
    await page.getByTestId('hub-tab-models').click();
    await search('');
  });

  it('task and library pages', async () => {
    await page.goto(`${app.origin}/#/catalogue/task/text-generation`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await check('task page');
    await page.goto(`${app.origin}/#/catalogue/library/transformers`);
    await page.getByTestId('library-top-models').locator('li a').first().waitFor();
    await check('library page');
  });

  it('model pages with snippets and the workbench', async () => {
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent(CHAT)}`);
    await page.getByTestId('snippet-editor').locator('.monaco-editor').waitFor();
    await check('model page (chat model)');
    await page.getByTestId('kind-library').click();
    await check('snippet workbench: library');
    await page.getByTestId('kind-inference').click();
    await page.getByRole('button', { name: 'Insert my token' }).click();
    await page.getByTestId('no-token').waitFor();
    await check('snippet workbench: no token to insert');
    await page.getByTestId('no-token').getByRole('button', { name: 'OK' }).click();
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent(GGUF)}`);
    await page.getByTestId('snippet-editor').locator('.monaco-editor').waitFor();
    // The fit verdicts pick the default quantization, which the snippets are generated again for (dimmed meanwhile):
    // judged once they name it.
    await page.getByTestId('fit-badge').first().waitFor();
    const quant = await page.locator('tr.cat-picked').getAttribute('data-quant');
    await page.getByTestId('snippet-editor').getByText(`:${quant}`).first().waitFor();
    await check('model page (GGUF, fit verdicts)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'a11y-model-page-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('settings, then the embedded catalogue offline: home, modality, results', async () => {
    await page.goto(`${app.origin}/#/settings`);
    await page.getByTestId('hub-access-offline').waitFor();
    await check('settings');
    await page.getByTestId('hub-access-offline').click();
    await expect.poll(() => page.getByTestId('hub-access-offline').getAttribute('aria-checked')).toBe('true');
    await page.goto(`${app.origin}/#/catalogue`);
    await page.getByTestId('task-groups').waitFor();
    await check('catalogue home (embedded)');
    await page.getByRole('combobox', { name: 'Modality' }).selectOption({ index: 1 });
    await page.getByTestId('catalogue-results').waitFor();
    await check('catalogue: a modality');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await search('llama');
    await page.getByTestId('catalogue-results').waitFor();
    await check('search results (embedded)');
    await search('zzqqxxnothing');
    await page.getByText('Nothing matches').waitFor();
    await check('search: empty result (embedded)');
    await search('');
  });

  it('local models with Ollama up, a pull in progress, the details drawer and a dialog', async () => {
    await page.getByTestId('nav-models').click();
    await page.getByTestId('models-table').getByRole('button', { name: 'llama3.2:latest', exact: true }).waitFor();
    await check('local models');
    await page.evaluate(() => (location.hash = '#/models/pull/tinyllama'));
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    const job = page.locator('[data-testid="job"][data-model="tinyllama"]');
    await job.and(page.locator('[data-state="running"]')).waitFor();
    await expect
      .poll(async () => Number(await job.getByRole('progressbar').first().getAttribute('aria-valuenow')))
      .toBeGreaterThan(0);
    await check('a pull in progress');
    await job.getByRole('button', { name: 'Cancel' }).click();
    await job.and(page.locator('[data-state="cancelled"]')).waitFor();
    await page.getByTestId('models-table').getByRole('button', { name: 'llama3.2:latest', exact: true }).click();
    await page.getByTestId('details').getByText('Parameters').first().waitFor();
    await check('details drawer');
    await page.getByTestId('details').getByRole('button', { name: 'Copy / rename' }).click();
    await page.getByRole('dialog', { name: /Copy llama3\.2/ }).waitFor();
    await check('copy dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('details').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('details').waitFor({ state: 'detached' });
  });

  it('chat: empty, a conversation, a reply streaming', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByText('No conversations yet').first().waitFor();
    await check('chat: empty');
    await page.getByTestId('new-chat').click();
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    await page.getByTestId('composer').fill('Hello');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]')).waitFor();
    await check('chat: a conversation');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await check('chat: the Export menu');
    await page.getByRole('menuitem', { name: 'Open as code' }).click();
    await page.getByTestId('code-pane').locator('.monaco-editor').waitFor();
    await check('chat: open as code');
    await page.getByRole('button', { name: 'Close code' }).click();
    await page.getByLabel('Search conversations').fill('Hello');
    await page.getByTestId('search-results').waitFor();
    await check('chat: search results');
    await page.getByLabel('Search conversations').fill('');
    await page.getByTestId('composer').fill('slow please');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('msg-streaming').waitFor();
    await check('chat: a reply streaming');
    await page.getByTestId('stop').click();
  });

  it('tools screen', async () => {
    await page.getByTestId('nav-tools').click();
    await page.getByText('No MCP servers yet').waitFor();
    await check('tools');
  });

  it('local models with Ollama down', async () => {
    await ollama.stop();
    ollamaUp = false;
    await page.goto(`${app.origin}/#/models`);
    await page
      .getByRole('button', { name: /Try again|Retry/ })
      .first()
      .waitFor();
    await check('local models: Ollama down');
    await screenshot(page, 'a11y-ollama-down');
  });
});
