import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { openApp, type WebApp } from './harness';

// Start-up: the catalogue comes from the asset built with the app (no call to main), main's services are loaded
// after the server listens and still answer every call, and a new chat is ready to be typed in.
describe('start-up in Chromium', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const requests: string[] = [];

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ({ app, browser, page, errors } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  it('paints the catalogue from the built, preloaded asset, without asking main for it', async () => {
    // Reload with the requests watched: the page opened before the listener existed.
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.reload();
    await page.getByTestId('task-groups').waitFor();
    expect(requests).toContain('/catalogue.json');
    expect(requests.filter((p) => p.includes('catalogue.get'))).toEqual([]);
    const asset = JSON.parse(readFileSync(join(process.cwd(), 'out/renderer/catalogue.json'), 'utf8'));
    const shown = await page.getByTestId('task-groups').textContent();
    expect(asset.tasks.length).toBeGreaterThan(10);
    expect(shown).toContain(asset.tasks.find((t: { id: string }) => t.id === 'text-generation').label);
  });

  it('the API still answers, the catalogue call included (the services load after the server listens)', async () => {
    const call = (name: string) =>
      fetch(`${app.origin}/api/call/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.secret}`, 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.json());
    const got = await call('catalogue.get');
    const asset = JSON.parse(readFileSync(join(process.cwd(), 'out/renderer/catalogue.json'), 'utf8'));
    expect(got.ok).toBe(true);
    expect(got.value).toEqual(asset);
  });

  it('a new chat puts the focus in the composer', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer').waitFor();
    await expect.poll(() => page.getByTestId('composer').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('typed at once');
    expect(await page.getByTestId('composer').inputValue()).toBe('typed at once');
    expect(errors).toEqual([]);
  });
});
