import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { closedPort } from '../helpers/ports';
import { openApp, screenshot, type WebApp } from './harness';

describe('app shell in Chromium (web mode)', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ollama = await startOllamaFixture({
      models: [
        fixtureModel('llama3.2'),
        fixtureModel('qwen3:8b', { family: 'qwen3', parameter_size: '8.2B', size: 5225387923 }),
      ],
    });
    ({ app, browser, page, errors } = await openApp({
      env: { OLLAMA_HOST: ollama.url, HF_TOKEN: 'hf_e2eSecretValue1234' },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  it('removes the secret from the address bar and shows Ollama as reachable', async () => {
    await expect.poll(() => page.url()).not.toContain('token=');
    await page.getByTestId('ollama-status').getByText('Ollama 0.12.3').waitFor();
  });

  it('once the app has been idle, the pages a person goes to next have their code: a first visit fetches none', async () => {
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const scripts: string[] = [];
    const calls: string[] = [];
    fresh.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      if (r.url().includes('/api/call/')) calls.push(r.url().split('/').pop()!);
    });
    try {
      await fresh.goto(app.url);
      await fresh.getByTestId('task-groups').waitFor();
      const loaded = (name: string) => scripts.some((s) => s.startsWith(`/assets/${name}-`));
      expect(loaded('ChatPage')).toBe(false); // nothing of it with the first screen
      // Every page the idle list preloads (app/startup.ts), Compare's last.
      for (const name of [
        'ModelPage',
        'TaskPage',
        'ChatPage',
        'ModelsPage',
        'SettingsPage',
        'ToolsPage',
        'ComparePage',
      ])
        await expect.poll(() => loaded(name), { timeout: 15_000 }).toBe(true);
      // Not the editor: Monaco (~1 MB) loads when a snippet pane first needs it, never while the user is elsewhere.
      expect(scripts.filter((s) => /monaco|editor/i.test(s))).toEqual([]);
      // Chat's conversation list too: main opens its chat store while the user is elsewhere.
      await expect.poll(() => calls.includes('chat.list')).toBe(true);
      await fresh.evaluate(() => {
        const w = window as unknown as { __loadingSeen?: boolean };
        new MutationObserver(() => {
          if (document.body.textContent?.includes('Loading conversations')) w.__loadingSeen = true;
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const before = scripts.length;
      await fresh.getByTestId('nav-chat').click();
      await fresh.getByRole('heading', { name: 'Chat' }).waitFor();
      await fresh.getByText('No conversations yet.').waitFor();
      // The list read while idle is on screen at once; asked again behind it, it never shows "Loading".
      await expect.poll(() => calls.filter((c) => c === 'chat.list').length).toBe(2);
      expect(
        await fresh.evaluate(() => (window as unknown as { __loadingSeen?: boolean }).__loadingSeen),
      ).toBeUndefined();
      await fresh.getByTestId('nav-models').click();
      await fresh.getByTestId('models-table').getByText('qwen3:8b').waitFor();
      expect(scripts.slice(before)).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('navigates every page and each renders its content', async () => {
    await page.getByTestId('nav-catalogue').click();
    await page.getByRole('heading', { name: 'Catalogue' }).waitFor();
    await screenshot(page, 'shell-catalogue');

    await page.getByTestId('nav-models').click();
    await page.getByTestId('models-table').getByText('qwen3:8b').waitFor();
    await screenshot(page, 'shell-models');

    await page.getByTestId('nav-chat').click();
    await page.getByRole('heading', { name: 'Chat' }).waitFor();
    await screenshot(page, 'shell-chat');

    await page.getByTestId('nav-settings').click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await screenshot(page, 'shell-settings');
  });

  it('a page whose code cannot be fetched shows why and a reload; the rest of the app keeps working', async () => {
    // The server refuses the Tools page's chunk from the app's start: loading it when idle fails quietly, and a
    // visit tries again.
    await page.route(/\/assets\/ToolsPage-[^/]*\.js$/, (r) => r.abort('connectionrefused'));
    try {
      await page.reload();
      await page.getByTestId('nav-tools').waitFor();
      await page.getByTestId('nav-tools').click();
      const alert = page.getByRole('alert');
      await alert.getByText('This page’s code could not be loaded').waitFor();
      expect(await alert.textContent()).toMatch(/Reload to fetch it again; other pages still work/);
      await screenshot(page, 'shell-page-code-failed');
      await page.getByTestId('nav-settings').click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
    } finally {
      await page.unroute(/\/assets\/ToolsPage-[^/]*\.js$/);
    }
    await page.getByTestId('nav-tools').click();
    await page.getByRole('button', { name: 'Reload HubDesk' }).click();
    await page.getByRole('heading', { name: 'Tools' }).waitFor();
    // The refused chunk was reported on the console (React logs the error it caught), and nothing else was.
    const refused = (e: string) => /Failed to load resource|dynamically imported module: .*\/ToolsPage-/.test(e);
    expect(errors.filter((e) => !refused(e))).toEqual([]);
    errors.splice(0, errors.length);
  });

  it('keyboard shortcuts: Ctrl+, opens settings, Ctrl+K focuses the catalogue search', async () => {
    await page.getByTestId('nav-chat').click();
    await page.keyboard.press('Control+,');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.keyboard.press('Control+k');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('catalogue-search');
  });

  it('settings persist across a reload; the token shows only as set, never its value', async () => {
    await page.getByTestId('nav-settings').click();
    await page.getByRole('radio', { name: 'Dark' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const token = page.getByTestId('secret-hfToken');
    await token.getByText('ends in …1234').waitFor();
    await page.reload();
    await page.getByRole('radio', { name: 'Dark' }).and(page.locator('[aria-checked="true"]')).waitFor();
    expect(await page.content()).not.toContain('hf_e2eSecretValue1234');
    await screenshot(page, 'shell-settings-dark');
  });

  it('an Ollama that goes away shows as not reachable', async () => {
    await page.getByTestId('nav-settings').click();
    const host = page.locator('#setting-ollamaHost');
    const port = await closedPort();
    await host.fill(`http://127.0.0.1:${port}`);
    await host.press('Enter');
    await page.getByTestId('ollama-status').getByText('Ollama not reachable').waitFor();
    await page.getByTestId('nav-models').click();
    await page.getByText(`Ollama is not running at http://127.0.0.1:${port}`).waitFor();
    await screenshot(page, 'shell-models-down');
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
  });
});
