import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { tempDir } from '../helpers/app';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { launchBrowser, screenshot, startWebApp, watchErrors, type WebApp } from './harness';

/** A port free now, for `--port`: the web mode started twice on the same address, as a user's fixed port is. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

describe('the web mode restarted on a fixed --port (a new secret)', () => {
  const data = tempDir('hubdesk-e2e-secret-');
  let ollama: OllamaFixture;
  let first: WebApp | undefined;
  let second: WebApp | undefined;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    const env = { OLLAMA_HOST: ollama.url };
    const port = await freePort();
    first = await startWebApp({ env, port, dataDir: data.path });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    errors = watchErrors(page);
    await page.goto(first.url);
    await page.getByTestId('nav-models').click();
    await page.locator('[data-testid="ollama-status"].status-ok').waitFor();
    // On the Models page with its code in: stopped while that code was still coming, the page would rightly say it
    // could not be loaded (PageBoundary), which is not what this suite is about.
    await page.getByRole('heading', { name: 'Local models', level: 1 }).waitFor();
    await first.stop();
    second = await startWebApp({ env, port, dataDir: data.path });
    expect(second.url).not.toBe(first.url);
  });
  afterAll(async () => {
    await browser?.close();
    await first?.stop();
    await second?.stop();
    await ollama?.stop();
    data.remove();
  });

  it('says the page secret is stale, not that Ollama is unreachable', async () => {
    // A click asks main again; the status bar's own poll may have found the stale secret first (the status is gone).
    await page
      .getByTestId('ollama-status')
      .click({ timeout: 5000 })
      .catch(() => {});
    const banner = page.getByRole('alert').filter({ hasText: "This page's secret is stale" });
    await banner.waitFor();
    expect(await banner.textContent()).toBe(
      "This page's secret is stale — HubDesk was restarted. Open the address it printed in this tab.",
    );
    expect(await page.locator('.statusbar').textContent()).not.toContain('Ollama');
    expect(await page.getByTestId('ollama-status').count()).toBe(0);
    await screenshot(page, 'web-secret-stale');
  });

  it('the new address pasted into the tab (only its fragment changes) makes calls work, without a reload', async () => {
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await page.evaluate((hash) => (location.hash = hash), new URL(second!.url).hash);
    await page.locator('[data-testid="ollama-status"].status-ok').waitFor();
    expect(await page.getByTestId('secret-refused').count()).toBe(0);
    // The secret left the address, and the page the user was on stayed.
    expect(new URL(page.url()).hash).toBe('#/models');
    expect(await page.evaluate(() => sessionStorage.getItem('hubdesk.webSecret'))).toBe(second!.secret);
    // Other calls work too: Chat lists its (empty) conversations.
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').waitFor();
    expect(loads).toEqual([]);
    // The only errors: the browser's own log of the refused requests (401s, any request that fell in the gap
    // between the two servers, and one in flight when the first stopped: reset).
    expect(errors.filter((e) => !/status of 401|ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET/.test(e))).toEqual([]);
  });
});
