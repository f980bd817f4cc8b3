import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { openApp, screenshot, type WebApp } from './harness';

const REPO = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
const QUANTS = ['Q2_K', 'Q4_K_M', 'UD-Q4_K_XL', 'Q8_0', 'F16'];

/**
 * What users come for, in one go and in one app: a new user chooses the Hub, finds a GGUF model by name with the
 * keyboard, reads its card, licence and files, sees which quantization fits this machine (detected, not set), pulls
 * the chosen one into Ollama and chats with it.
 */
describe('the whole journey in Chromium: first run → Hub search → model page → fit → pull → chat', () => {
  let hub: HubFixture;
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    hub = await startHubFixture();
    ollama = await startOllamaFixture({
      models: [],
      // Whichever quant this machine's verdicts choose can be pulled.
      registry: Object.fromEntries(QUANTS.map((q) => [`hf.co/${REPO}:${q}`, { layers: [700_000_000, 1481] }])),
      progressIntervalMs: 20,
      progressSteps: 6,
    });
    ollama.chunkIntervalMs = 10;
    ollama.chatScript = (req) => ({ content: tokens(`Hello from ${req.model}, running on your machine.`) });
    ({ app, browser, page, errors } = await openApp({
      firstRun: true,
      env: { HF_ENDPOINT: hub.url, OLLAMA_HOST: ollama.url },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
    await hub?.stop();
  });

  it('goes from a fresh install to a streamed reply from the pulled model', async () => {
    // 1. First run: nothing reaches the Hub before the choice; Enter takes the recommended one.
    await page.getByTestId('first-run').waitFor();
    expect(hub.requests).toHaveLength(0);
    await page.keyboard.press('Enter');
    await page.getByTestId('hub-list-models').waitFor();

    // 2. Search by name from anywhere, open the result with the keyboard.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('llama-3.2-1b');
    await page.getByTestId('hub-list-models').locator(`a[data-id="${REPO}"]`).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe(REPO);

    // 3. The model page: its card, its licence, its files.
    await expect.poll(() => page.getByTestId('repo-card').getAttribute('aria-busy')).toBe('false');
    expect((await page.getByTestId('card-body').innerText()).length).toBeGreaterThan(20);
    expect(await page.getByTestId('model-licence').innerText()).toMatch(/\S/);
    await page.getByTestId('repo-tab-files').click();
    await expect.poll(() => page.getByTestId('repo-files').innerText()).toMatch(/\.gguf/);

    // 4. Fit on this machine: every quant has a verdict, and one is chosen as the default.
    const quants = page.getByTestId('model-quants');
    await quants.getByTestId('fit-badge').first().waitFor();
    await expect.poll(() => quants.getByTestId('fit-hardware').textContent()).toMatch(/^This machine: [\d.]+ GB RAM/);
    const verdicts = await quants
      .getByTestId('quant-row')
      .evaluateAll((rows) => rows.map((r) => r.querySelector('[data-verdict]')?.getAttribute('data-verdict') ?? ''));
    expect(verdicts).toHaveLength(QUANTS.length);
    expect(verdicts.every((v) => ['vram', 'partial', 'ram', 'too-large'].includes(v))).toBe(true);
    const chosen = await quants.getByTestId('default-quant').locator('xpath=ancestor::tr').getAttribute('data-quant');
    expect(QUANTS).toContain(chosen);
    await screenshot(page, 'journey-model');

    // 5. Pull the chosen quant into Ollama, inline, then "Chat now".
    await page.getByTestId('run-ollama').click();
    await page.getByTestId('pull-inline').getByRole('progressbar').waitFor();
    await page.getByTestId('chat-now').waitFor({ timeout: 30_000 });
    const pulled = `hf.co/${REPO}:${chosen}`;
    expect(ollama.models.map((m) => m.name)).toEqual([pulled]);
    await page.getByTestId('chat-now').click();

    // 6. Chat with it: the conversation names the model and the reply streams in.
    await page.getByText(`Ollama · ${pulled}`).waitFor();
    await page.getByTestId('composer').fill('Hi!');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]'));
    await reply.waitFor();
    expect(await reply.textContent()).toContain(`Hello from ${pulled}, running on your machine.`);
    await screenshot(page, 'journey-chat');
    expect(errors).toEqual([]);
  });
});
