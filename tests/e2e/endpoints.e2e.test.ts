import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import { startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startOpenAIServer, type OpenAIServerFixture } from '../fixtures/openai-server';
import { words } from '../fixtures/router';
import { tempDir } from '../helpers/app';
import { closedPort } from '../helpers/ports';
import { axeViolations } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

/**
 * An OpenAI-compatible server added by its address in Settings → Endpoints (the page is given nothing else), then
 * chatted with: the doctor's report, thinking, the speed under the reply, Stop, a tool call approved in the message;
 * and a dead address's verdict.
 */
describe('endpoints in Chromium against a llama-server fixture', () => {
  let llama: OpenAIServerFixture;
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const dir = tempDir('hubdesk-e2e-endpoints-');

  beforeAll(async () => {
    llama = await startOpenAIServer('llama.cpp', {
      script: (req) => {
        const message = req.messages?.at(-1);
        const last = String(message?.content ?? '');
        // Asked to add, the model calls the MCP fixture's `add`; given its result, it answers with it.
        if (message?.role === 'tool') return { content: words(`The tool answered ${last}.`) };
        if (last.startsWith('add'))
          return { content: [], tool_calls: [{ name: 'add', arguments: '{"a":2,"b":40}' }], argumentChunk: 4 };
        return last.startsWith('long')
          ? { content: Array.from({ length: 400 }, (_, i) => `word${i} `) }
          : {
              reasoning: ['Let me ', 'think ', 'about it.'],
              content: words(`Hello from llama.cpp, you said: ${last}`),
            };
      },
    });
    ollama = await startOllamaFixture({ models: [] });
    writeFileSync(join(dir.path, 'mcp.json'), mcpConfigText({ calc: stdioEntry() }));
    ({ app, browser, page, errors } = await openApp({ env: { OLLAMA_HOST: ollama.url }, dataDir: dir.path }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await llama?.stop();
    await ollama?.stop();
    dir.remove();
  });

  /** Both widths, both themes: the screen must look finished in each. */
  async function shots(name: string) {
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      for (const width of [1400, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(page, `${name}-${width}-${theme}`);
      }
    }
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  const card = () => page.getByTestId('endpoints-settings');

  it('Settings → Endpoints: none yet, then one added by its address with the doctor’s report', async () => {
    await page.getByTestId('nav-settings').click();
    await card().getByTestId('endpoints-empty').waitFor();
    // Keyboard only: the button opens the form on its first field.
    await card().getByRole('button', { name: 'Add endpoint' }).focus();
    await page.keyboard.press('Enter');
    const form = card().getByRole('form', { name: 'Add endpoint' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    expect(await form.getByLabel('Base URL').inputValue()).toBe('http://127.0.0.1:8080');
    await form.getByLabel('Name').fill('my box');
    await form.getByLabel('Base URL').fill(llama.url);
    await form.getByLabel('Base URL').press('Enter');

    const row = card().getByRole('listitem', { name: 'my box' });
    const report = row.getByTestId('doctor-report');
    await report.waitFor();
    expect(await report.getAttribute('class')).toContain('doctor-ok');
    expect(await report.textContent()).toContain(`Requests go to ${llama.url}/v1`);
    expect(await report.locator('.check-ok').count()).toBeGreaterThan(1);
    expect(await row.textContent()).toContain('no key');
    expect(await axeViolations(page)).toEqual([]);
    await card().scrollIntoViewIfNeeded();
    await shots('endpoints-settings');
  });

  it('a dead address says what is wrong in words to act on, within seconds', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    await card().getByRole('button', { name: 'Add endpoint' }).click();
    const form = card().getByRole('form', { name: 'Add endpoint' });
    await form.getByLabel('Server').selectOption('vllm');
    await form.getByLabel('Name').fill('GPU box');
    await form.getByLabel('Base URL').fill(dead);
    await form.scrollIntoViewIfNeeded();
    await shots('endpoints-form');
    const started = Date.now();
    await form.getByRole('button', { name: 'Save' }).click();
    const row = card().getByRole('listitem', { name: 'GPU box' });
    const problem = row.getByTestId('doctor-report').getByRole('alert');
    await problem.waitFor();
    console.log(`doctor verdict for a dead address, as the page shows it: ${Date.now() - started} ms`);
    expect(await problem.textContent()).toMatch(/^Nothing is listening at 127\.0\.0\.1:\d+ — start the server/);
    await row.scrollIntoViewIfNeeded();
    await shots('endpoints-dead');
    // Removed again, after asking.
    await row.getByRole('button', { name: 'Remove…' }).click();
    await row.getByRole('button', { name: 'Remove', exact: true }).click();
    await row.waitFor({ state: 'detached' });
  });

  const assistant = () => page.getByTestId('msg-assistant');

  it('a chat on the endpoint: its model taken, thinking shown, the speed under the reply', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    // No Ollama model: the header's engine picker offers the endpoint.
    // Its models are listed first, so choosing the engine takes the one it serves.
    const picker = page.getByTestId('model-select');
    await picker.locator('option', { hasText: 'Qwen3-0.6B-Q8_0.gguf' }).waitFor({ state: 'attached' });
    await page.getByRole('radio', { name: 'llama.cpp — my box' }).click();
    await page.getByTestId('thread').getByText('llama.cpp — my box · Qwen3-0.6B-Q8_0.gguf').waitFor();
    expect(await picker.locator('optgroup').getAttribute('label')).toBe('llama.cpp — my box');
    await expect
      .poll(() => page.getByTestId('endpoint-model-info').textContent())
      .toContain('Context: 4,096 tokens (the model was trained with 40,960).');
    await shots('endpoints-chat-settings');

    await page.getByTestId('composer').fill('Hi there');
    await page.getByTestId('composer').press('Enter');
    const reply = assistant().and(page.locator('[data-status="complete"]'));
    await reply.waitFor();
    expect(await reply.locator('.msg-body').textContent()).toContain('Hello from llama.cpp, you said: Hi there');
    await reply.locator('.msg-thinking summary').click();
    expect(await reply.locator('.msg-thinking pre').textContent()).toBe('Let me think about it.');
    const figures = reply.getByTestId('msg-figures');
    // llama.cpp sends its own timings: the figures are the server's.
    expect(await figures.textContent()).toMatch(
      /^\d+ tokens · [\d.,]+ tok\/s · first token [\d.,]+ (ms|s) · .* · server$/,
    );
    expect(await figures.getAttribute('title')).toBe('Speed as reported by the server');
    // The reply's hover actions fade out once the pointer leaves; axe looks at the page at rest.
    await page.mouse.move(0, 0);
    await expect.poll(() => reply.locator('.msg-actions').evaluate((e) => getComputedStyle(e).opacity)).toBe('0');
    expect(await axeViolations(page)).toEqual([]);
    await shots('endpoints-chat-reply');
  });

  it('Stop ends the reply where it is: the text so far kept, marked stopped', async () => {
    llama.chunkIntervalMs = 15;
    await page.getByTestId('composer').fill('long story please');
    await page.getByTestId('send').click();
    const streaming = page.getByTestId('msg-streaming');
    await streaming.waitFor();
    await expect
      .poll(async () => (await streaming.textContent())?.length ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(60);
    await page.getByTestId('stop').click();
    const stopped = assistant().and(page.locator('[data-status="stopped"]'));
    await stopped.waitFor();
    const shown = (await stopped.locator('.msg-body').textContent()) ?? '';
    expect(shown).toMatch(/^word0 word1 word2/);
    expect(shown).not.toContain('word399');
    await stopped.getByTestId('msg-stopped').waitFor();
  });

  it('a tool the model calls waits for approval in the message, runs, and the model answers with its result', async () => {
    llama.chunkIntervalMs = 1;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('tool-picker').click();
    const source = page.getByTestId('tool-source-calc');
    await source.getByText(/add/).waitFor();
    await source.getByRole('checkbox').check();
    await page.getByTestId('tool-picker').getByText('Tools · 1').waitFor();
    await page.getByTestId('tool-picker').click();
    await page.getByRole('button', { name: 'Settings' }).click();

    await page.getByTestId('send').waitFor();
    await page.getByTestId('composer').fill('add 2 and 40');
    await page.getByTestId('composer').press('Enter');
    const card = page.getByTestId('msg-tool').last();
    await card.getByText('waiting for your approval').waitFor();
    // The arguments came in fragments; the card shows them whole.
    expect(await card.getByLabel('Arguments of add').innerText()).toBe('{\n  "a": 2,\n  "b": 40\n}');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await card.getByTestId('tool-result').getByText('42', { exact: true }).waitFor();
    await assistant().last().getByText('The tool answered 42.').waitFor();
    await shots('endpoints-chat-tools');
    expect(errors).toEqual([]);
  });
});
