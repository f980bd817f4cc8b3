import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { syntheticExport } from '../fixtures/conversation';
import { openApp, screenshot, type WebApp } from './harness';

/** The chat's model picker (no embedding models; a new chat starts on a loaded one) and "Export all". */
describe('chat models and the conversations archive (web mode, Chromium)', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const qwen = fixtureModel('qwen3:8b', { family: 'qwen3' });
    ollama = await startOllamaFixture({
      models: [fixtureModel('llama3.2'), fixtureModel('nomic-embed-text', { family: 'nomic-bert' }), qwen],
    });
    ollama.setShow('nomic-embed-text', { capabilities: ['embedding'] });
    ollama.load(qwen);
    ({ app, browser, page, errors } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  const items = () => page.getByTestId('conv-item');

  it('the first new chat starts on the model Ollama has loaded; embedding models are not offered', async () => {
    await page.evaluate(() => (location.hash = '#/chat'));
    await page.getByTestId('new-chat').click();
    // It has a model; the header names it, and its picker is in the header.
    await page.getByTestId('thread').getByText('Ollama · qwen3:8b').waitFor();
    const select = page.getByTestId('model-select');
    await expect.poll(() => select.inputValue()).toBe('qwen3:8b');
    await expect
      .poll(() => select.locator('option').allTextContents())
      .toEqual(['Choose a model…', 'llama3.2:latest', 'qwen3:8b']);
    await screenshot(page, 'chat-model-picker');
  });

  it('exports every conversation to one file and imports it back as a whole', async () => {
    for (const [n, title] of [
      [3, 'First archived'],
      [5, 'Second archived'],
    ] as const) {
      await page.getByTestId('import-file').setInputFiles({
        name: `${n}.json`,
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ ...syntheticExport(n, title), messages: [] })),
      });
      await items().filter({ hasText: title }).waitFor();
    }
    // The first chat, left empty when an import opened, is not kept (issue #40 item 10).
    await expect.poll(() => items().count()).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export all' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^hubdesk-conversations-.*\.json$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const archive = JSON.parse(text) as { conversations: { meta: { title: string } }[] };
    expect(archive.conversations.map((c) => c.meta.title).sort()).toEqual(['First archived', 'Second archived']);

    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'all.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    // They are all still here: copies only on the user's word.
    const again = page.getByRole('group', { name: 'Already imported' });
    await again.getByText(/^2 of these conversations are already here: .* Import again as a copy\?$/).waitFor();
    await screenshot(page, 'chat-import-again');
    await again.getByRole('button', { name: 'Import a copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 conversations.' }).waitFor();
    await expect.poll(() => items().count()).toBe(4);
    await screenshot(page, 'chat-import-archive');
    expect(errors).toEqual([]);
  });
});
