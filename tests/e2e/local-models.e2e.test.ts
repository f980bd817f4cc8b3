import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { folderFiles, hfCacheRepo } from '../fixtures/model-folders';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { tempDir } from '../helpers/app';
import { closedPort } from '../helpers/ports';
import { openApp, screenshot, type WebApp } from './harness';

/**
 * Local models without Ollama, in Chromium: the Ollama tab offers the built-in engine; the built-in tab finds a GGUF
 * in the HF cache, loads it for real (node-llama-cpp, one thread), shows its memory and unloads it; a folder is added
 * by path; the local server turns on with a key and shows its URL.
 */
describe('the built-in engine on Local models (web mode, Chromium)', () => {
  const home = tempDir('hubdesk-e2e-home-');
  const data = tempDir('hubdesk-e2e-local-');
  const cache = join(home.path, 'hf-cache');
  const mine = join(home.path, 'my ggufs');
  const id = 'org/tiny-GGUF/tiny-Q8_0.gguf';
  const LONG_REPO = 'bartowski/DeepSeek-R1-Distill-Qwen-14B-Uncensored-abliterated-GGUF';
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    hfCacheRepo(cache, 'org/tiny-GGUF', { 'tiny-Q8_0.gguf': tinyGguf({ seed: 3, name: 'Tiny' }) });
    // A repo id as long as real ones, to see where it wraps.
    hfCacheRepo(cache, LONG_REPO, {
      'DeepSeek-R1-Distill-Qwen-14B-Uncensored-abliterated-Q4_K_M.gguf': tinyGguf({ seed: 4, name: 'Long' }),
    });
    folderFiles(mine, { 'other-Q4_0.gguf': tinyGguf({ seed: 5 }) });
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'local.json'), JSON.stringify({ threads: 1 }));
    const ollama = `http://127.0.0.1:${await closedPort()}`;
    ({ app, browser, page, errors } = await openApp({
      dataDir: data.path,
      env: { HOME: home.path, HF_HUB_CACHE: cache, OLLAMA_HOST: ollama },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    home.remove();
    data.remove();
  });

  /** Both widths the layout must look finished at. */
  async function shots(name: string) {
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  const row = (model: string) => page.locator(`[data-testid="library-row"][data-model="${model}"]`);

  it('no Ollama: its tab says so and offers the built-in engine', async () => {
    await page.getByTestId('nav-models').click();
    await page.getByRole('tab', { name: 'Ollama', selected: true }).waitFor();
    await page.getByText('Ollama is not running').first().waitFor({ timeout: 20_000 });
    const offer = page.getByTestId('no-ollama');
    await offer.getByText('No Ollama? Run models inside HubDesk').waitFor();
    await offer.getByTestId('recommendation').waitFor();
    await shots('local-models-no-ollama');
  });

  it('the built-in tab lists the HF-cache GGUF; Load shows it loaded with its memory; Unload', async () => {
    await page.getByRole('tab', { name: 'Built-in engine' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/models/builtin');
    await row(id).waitFor({ timeout: 30_000 });
    expect(await row(id).getByTestId('source').textContent()).toBe('HF cache');
    expect(await row(id).getByRole('link', { name: 'org/tiny-GGUF' }).getAttribute('href')).toBe(
      '#/catalogue/model/org%2Ftiny-GGUF',
    );
    // The repo id wraps only where it may (after "/", "-"), never mid-word, at either width (issue #40 item 15).
    for (const width of [1024, 1400]) {
      await page.setViewportSize({ width, height: 900 });
      const cut = await row(`${LONG_REPO}/DeepSeek-R1-Distill-Qwen-14B-Uncensored-abliterated-Q4_K_M.gguf`)
        .locator('.lib-repo a')
        .evaluate((a) => {
          const text = a.firstChild as Text;
          const r = document.createRange();
          const lines: string[] = [];
          let top: number | undefined;
          let from = 0;
          for (let i = 0; i < text.length; i++) {
            r.setStart(text, i);
            r.setEnd(text, i + 1);
            const t = r.getBoundingClientRect().top;
            if (top !== undefined && t - top > 2) {
              lines.push(text.data.slice(from, i));
              from = i;
            }
            top = t;
          }
          return [...lines, text.data.slice(from)];
        });
      expect(cut.join(''), `at ${width} px`).toBe(LONG_REPO);
      for (const line of cut.slice(0, -1)) expect(line, `at ${width} px: ${cut.join(' | ')}`).toMatch(/[/-]$/);
    }
    await shots('local-models-builtin');

    await row(id).getByRole('button', { name: 'Load tiny-Q8_0' }).click();
    const form = page.getByTestId('load-form');
    expect(await form.getByLabel('Context length (tokens)').inputValue()).toBe('512');
    await shots('local-models-load-form');
    await page.getByRole('dialog').getByRole('button', { name: 'Load', exact: true }).click();
    const bar = page.getByTestId('engine-bar');
    await bar.getByTestId('loaded-memory').waitFor({ timeout: 60_000 });
    expect(await bar.getByTestId('loaded-memory').textContent()).toMatch(
      /^[\d.]+ (KB|MB|GB) in memory \(file \+ KV cache \+ buffers\)$/,
    );
    expect(await bar.getByTestId('engine-backend').textContent()).toMatch(/^llama\.cpp · /);
    await row(id).getByText('Loaded').waitFor();
    await shots('local-models-loaded');

    await bar.getByRole('button', { name: 'Unload tiny-Q8_0' }).click();
    await bar.getByTestId('engine-idle').waitFor();
    await row(id).getByRole('button', { name: 'Load tiny-Q8_0' }).waitFor();
  });

  it('adds a folder by path (a wrong one refused with main’s message)', async () => {
    const folders = page.getByTestId('folders');
    const field = folders.getByLabel('Add a folder');
    await field.fill(join(home.path, 'nowhere'));
    await folders.getByRole('button', { name: 'Add folder' }).click();
    await folders.getByRole('alert').waitFor();
    await field.fill(mine);
    await folders.getByRole('button', { name: 'Add folder' }).click();
    await folders.locator(`[data-testid="folder"][data-path="${mine}"]`).waitFor();
    const other = page.getByTestId('library-row').filter({ hasText: 'other-Q4_0' });
    await other.waitFor();
    expect(await other.getByTestId('source').textContent()).toBe('Folder');
  });

  it('the local server turns on with a key and shows its URL; the key itself never shows', async () => {
    const card = page.getByTestId('server-card');
    const key = 'e2e-local-key-0123456789';
    await card.getByRole('button', { name: 'Type my own…' }).click();
    await card.getByLabel('Your key').fill(key);
    await card.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => card.getByTestId('server-key').textContent()).toBe('Set, ending in …6789');
    await card.getByRole('switch', { name: 'Local server' }).click();
    await card.getByTestId('server-url').waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('server-url').textContent()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(await page.content()).not.toContain(key);
    await shots('local-models-server');
    await card.getByRole('switch', { name: 'Local server' }).click();
    await card.getByTestId('server-url').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
