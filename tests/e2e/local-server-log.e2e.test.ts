import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { tempDir } from '../helpers/app';
import { closedPort } from '../helpers/ports';
import { openApp, screenshot, type WebApp } from './harness';

/**
 * The local server's card in Chromium: turned on with a key, requests sent to the server from here show up in its
 * log as they are answered (a refused key in red with its words), an origin is allowed, and Clear empties the log.
 */
describe('the local server’s request log (web mode, Chromium)', () => {
  const home = tempDir('hubdesk-e2e-home-');
  const data = tempDir('hubdesk-e2e-netlog-');
  const key = 'e2e-netlog-key-0123456789';
  let port: number;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    port = await closedPort();
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'local.json'), JSON.stringify({ threads: 1, server: { enabled: false, port } }));
    const ollama = `http://127.0.0.1:${await closedPort()}`;
    ({ app, browser, page, errors } = await openApp({
      dataDir: data.path,
      env: { HOME: home.path, HF_HUB_CACHE: join(home.path, 'hf-cache'), OLLAMA_HOST: ollama },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    home.remove();
    data.remove();
  });

  async function shots(name: string) {
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.getByTestId('request-log').scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it('shows each request the server answers, live; Clear empties the log', async () => {
    await page.getByTestId('nav-models').click();
    await page.getByRole('tab', { name: 'Built-in engine' }).click();
    const card = page.getByTestId('server-card');
    await card.getByRole('button', { name: 'Type my own…' }).click();
    await card.getByLabel('Your key').fill(key);
    await card.getByRole('button', { name: 'Save key' }).click();
    await card.getByTestId('server-key').waitFor();
    await card.getByRole('switch', { name: 'Local server' }).click();
    await card.getByTestId('server-url').waitFor({ timeout: 20_000 });
    const log = card.getByTestId('request-log');
    await log.getByTestId('request-log-empty').waitFor();
    await shots('local-server-log-empty');

    const base = `http://127.0.0.1:${port}/v1`;
    const ok = await fetch(`${base}/models`, {
      headers: { authorization: `Bearer ${key}`, 'user-agent': 'curl/8.5.0' },
    });
    expect(ok.status).toBe(200);
    const refused = await fetch(`${base}/models`, {
      headers: { authorization: 'Bearer not-the-key-at-all', 'user-agent': 'python-httpx/0.27.0' },
    });
    expect(refused.status).toBe(401);

    const rows = log.getByTestId('request-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    expect(await rows.nth(0).getAttribute('data-status')).toBe('401');
    expect(await rows.nth(0).getByTestId('request-error').textContent()).toBe('Missing or wrong API key.');
    expect(await rows.nth(0).textContent()).toContain('python-httpx');
    expect(await rows.nth(1).getAttribute('data-status')).toBe('200');
    expect(await rows.nth(1).textContent()).toContain('GET /v1/models');
    expect(await rows.nth(1).textContent()).toContain('curl/8');

    await card.getByLabel('Allowed origins').fill('http://localhost:5173');
    await card.getByRole('button', { name: 'Allow' }).click();
    await card.getByTestId('server-origins').getByText('http://localhost:5173').waitFor();
    // The details open from the keyboard.
    await rows.nth(0).locator('summary').focus();
    await page.keyboard.press('Enter');
    await rows.nth(0).getByText('python-httpx/0.27.0').waitFor();
    await shots('local-server-log-rows');

    await log.getByRole('button', { name: 'Clear' }).click();
    await log.getByTestId('request-log-empty').waitFor();
    expect(await page.content()).not.toContain(key);
    await card.getByRole('switch', { name: 'Local server' }).click();
    await card.getByTestId('server-url').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
