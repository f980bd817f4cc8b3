import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hfCacheRepo } from '../fixtures/model-folders';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { tempDir } from '../helpers/app';
import { closedPort } from '../helpers/ports';
import { checkBothThemes } from './a11y';
import { launchBrowser, screenshot, startWebApp, watchErrors, type WebApp } from './harness';

/**
 * The local server card in Chromium (web mode, no keychain): Generate key, Copy key (read back from the clipboard,
 * never in the page), the model ids, a Copy on every sample, the note that the key lasts until restart, and after a
 * restart a server left on that says plainly why it is not running.
 */
describe('the local server card: key, samples, restart (web mode, Chromium)', () => {
  const home = tempDir('hubdesk-e2e-card-home-');
  const data = tempDir('hubdesk-e2e-card-');
  const cache = join(home.path, 'hf-cache');
  const id = 'org/tiny-GGUF/tiny-Q8_0.gguf';
  let port: number;
  let app: WebApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const env = () => ({ HOME: home.path, HF_HUB_CACHE: cache, OLLAMA_HOST: `http://127.0.0.1:${port + 1}` });

  async function open() {
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    page = await context.newPage();
    errors = watchErrors(page);
    // The web mode's URL carries its secret; the page keeps it for the hash route after.
    await page.goto(app.url);
    await page.goto(`${app.origin}/#/models/builtin`);
  }

  async function shots(name: string) {
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      // The card's top (its state, the key and the first samples) in view.
      await page.getByTestId('server-card').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1400, height: 1000 });
  }

  beforeAll(async () => {
    port = await closedPort();
    hfCacheRepo(cache, 'org/tiny-GGUF', { 'tiny-Q8_0.gguf': tinyGguf({ seed: 5, name: 'Tiny' }) });
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'local.json'), JSON.stringify({ threads: 1, server: { enabled: false, port } }));
    app = await startWebApp({ dataDir: data.path, env: env() });
    browser = await launchBrowser();
    await open();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    home.remove();
    data.remove();
  });

  it('Generate key, Copy key, the model ids and a Copy on every sample; the key never in the page', async () => {
    const card = page.getByTestId('server-card');
    await card.getByRole('button', { name: 'Generate key' }).click();
    await card.getByTestId('server-key').waitFor();
    expect(await card.getByTestId('server-key-lasts').textContent()).toMatch(
      /^This key lasts until HubDesk restarts.*HUBDESK_LOCAL_SERVER_KEY/,
    );
    await card.getByRole('switch', { name: 'Local server' }).click();
    await card.getByTestId('server-url').waitFor({ timeout: 20_000 });

    await card.getByRole('button', { name: 'Copy key' }).click();
    await expect.poll(clipboard).toMatch(/^hd-local-[A-Za-z0-9_-]{32}$/);
    const key = await clipboard();
    expect(await card.getByTestId('server-key').textContent()).toBe(`Set, ending in …${key.slice(-4)}`);
    expect(await page.content()).not.toContain(key);

    // The copied key is the server's, and the id on the card is one the server lists.
    const res = await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toContain(id);
    await card.getByTestId('server-ids').getByText(id).waitFor();
    await card.getByRole('button', { name: 'Copy the id of tiny-Q8_0' }).click();
    await expect.poll(clipboard).toBe(id);

    for (const sample of ['sample-env', 'sample-env-ps', 'sample-models', 'sample-chat']) {
      const box = card.getByTestId(sample);
      await box.getByRole('button').click();
      await expect.poll(clipboard).toBe(await box.locator('code').innerText());
    }
    expect(await clipboard()).toContain(`"model":"${id}"`);
    expect(await clipboard()).toContain('Bearer $HUBDESK_LOCAL_SERVER_KEY');
    expect(await card.getByTestId('sample-env').locator('code').innerText()).toBe(
      "export HUBDESK_LOCAL_SERVER_KEY='paste-the-key-here'",
    );
    await card.getByRole('button', { name: 'Show setups…' }).waitFor();

    expect(await checkBothThemes(page, 'server card with a generated key')).toEqual([]);
    await shots('local-server-card-key');
    expect(errors).toEqual([]);
  });

  it('after a restart, the server left on says plainly why it is not running, never "On, not running"', async () => {
    await context.close();
    await app.stop();
    app = await startWebApp({ dataDir: data.path, env: env() });
    await open();
    const card = page.getByTestId('server-card');
    await expect.poll(() => card.getByTestId('server-state').textContent()).toBe('Not running.');
    expect(await card.getByRole('switch', { name: 'Local server' }).getAttribute('aria-checked')).toBe('true');
    expect(await card.getByTestId('server-error').textContent()).toMatch(
      /^Its key was set on the page without a keychain to keep it, so it ended when HubDesk restarted\..*HUBDESK_LOCAL_SERVER_KEY/,
    );
    expect(await card.textContent()).not.toContain('On, not running');
    expect(await checkBothThemes(page, 'server card after a restart')).toEqual([]);
    await shots('local-server-card-restart');
    // Generating a key starts it again.
    await card.getByRole('button', { name: 'Generate key' }).click();
    await card.getByTestId('server-url').waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
  });
});
