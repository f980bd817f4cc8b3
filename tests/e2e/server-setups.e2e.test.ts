import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hfCacheRepo } from '../fixtures/model-folders';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { tempDir } from '../helpers/app';
import { closedPort } from '../helpers/ports';
import { launchBrowser, screenshot, startWebApp, watchErrors, type WebApp } from './harness';

/**
 * "Use from another app" in Chromium: the server card's Show setups… opens each app's setup for a GGUF in the HF
 * cache, in Monaco; the tabs move with the keyboard; Copy puts the setup on the clipboard; the key never shows.
 */
describe('the local server card: Use from another app (web mode, Chromium)', () => {
  const home = tempDir('hubdesk-e2e-setups-home-');
  const data = tempDir('hubdesk-e2e-setups-');
  const cache = join(home.path, 'hf-cache');
  const id = 'org/tiny-GGUF/tiny-Q8_0.gguf';
  const key = 'e2e-setups-key-0123456789';
  let app: WebApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  const editorText = async () =>
    (await page.locator('[data-testid="app-setups"] .monaco-editor .view-lines').innerText()).replace(/\u00a0/g, ' ');

  beforeAll(async () => {
    hfCacheRepo(cache, 'org/tiny-GGUF', { 'tiny-Q8_0.gguf': tinyGguf({ seed: 3, name: 'Tiny' }) });
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'local.json'), JSON.stringify({ threads: 1 }));
    app = await startWebApp({
      dataDir: data.path,
      env: { HOME: home.path, HF_HUB_CACHE: cache, OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}` },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(`${app.url}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    home.remove();
    data.remove();
  });

  it('opens the setups for the model on disk, filled with the running server’s address; Copy copies one', async () => {
    await page.goto(`${app.origin}/#/models/builtin`);
    const card = page.getByTestId('server-card');
    await card.getByRole('button', { name: 'Type my own…' }).click();
    await card.getByLabel('Your key').fill(key);
    await card.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => card.getByTestId('server-key').textContent()).toBe('Set, ending in …6789');
    await card.getByRole('switch', { name: 'Local server' }).click();
    await card.getByTestId('server-url').waitFor({ timeout: 20_000 });
    const url = (await card.getByTestId('server-url').textContent())!;

    await card.getByRole('button', { name: 'Show setups…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Use from another app' });
    await dialog.getByTestId('setups-facts').waitFor({ timeout: 20_000 });
    expect(await dialog.getByLabel('Model').inputValue()).toBe(id);
    expect(await dialog.getByTestId('setups-facts').textContent()).toContain(url);
    await dialog.locator('.monaco-editor').waitFor();
    await expect.poll(editorText).toContain(`base_url="${url}"`);
    expect(await editorText()).toContain(id);
    await screenshot(page, 'server-setups-python');

    // The app tabs are one tab stop; the arrow keys move between them.
    const apps = dialog.getByRole('tablist', { name: 'App' });
    await apps.getByRole('tab', { name: 'OpenAI SDK (Python)' }).focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => apps.getByRole('tab', { selected: true }).textContent()).toBe('Continue');
    await expect.poll(editorText).toContain('contextLength: 512');
    expect(await dialog.getByTestId('setup-steps').textContent()).toContain('~/.continue/.env');
    await screenshot(page, 'server-setups-continue');

    await dialog.getByTestId('copy-snippet').click();
    await expect
      .poll(() => dialog.getByTestId('setups-toast').textContent())
      .toBe('Continue setup copied to the clipboard');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`apiBase: "${url}"`);
    expect(copied).toContain('${{ secrets.HUBDESK_LOCAL_SERVER_KEY }}');

    await apps.getByRole('tab', { name: 'Claude Code' }).click();
    await expect.poll(editorText).toContain(`ANTHROPIC_BASE_URL=${url.replace(/\/v1$/, '')}`);
    await screenshot(page, 'server-setups-claude-code');

    expect(await page.content()).not.toContain(key);
    expect(copied).not.toContain(key);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
