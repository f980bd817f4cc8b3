import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { openApp, screenshot, type WebApp } from './harness';

/** Local models in Chromium against the Ollama fixture: pull with progress, cancel, pull again, details, delete. */
describe('local models (web mode, Chromium)', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ollama = await startOllamaFixture({
      models: [],
      registry: {
        'llama3.2:latest': { layers: [2019377376, 1481, 7711, 6016, 96, 561] },
        'nomic-embed-text:latest': {
          layers: [274290656, 11357],
          details: { family: 'nomic-bert', parameter_size: '137M', quantization_level: 'F16' },
        },
      },
      progressIntervalMs: 120,
      progressSteps: 40,
    });
    ollama.setShow('llama3.2', {
      license: 'LLAMA 3.2 COMMUNITY LICENSE AGREEMENT\nLlama 3.2 Version Release Date: September 25, 2024',
      system: 'You are a helpful assistant.',
      parameters: { temperature: 0.7, stop: ['<|start_header_id|>', '<|eot_id|>'] },
    });
    ollama.setShow('nomic-embed-text', { capabilities: ['embedding'] });
    ({ app, browser, page, errors } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  const job = (model: string) => page.locator(`[data-testid="job"][data-model="${model}"]`);

  it('shows a real empty state with suggestions when no model is pulled', async () => {
    await page.getByTestId('nav-models').click();
    await page.getByRole('heading', { name: 'Pull your first model' }).waitFor();
    await page.getByRole('button', { name: /llama3\.2/ }).waitFor();
    await screenshot(page, 'models-empty');

    // The catalogue's "Run locally" link: the form opens pre-filled and waits for the user.
    const hf = 'hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M';
    await page.evaluate((name) => (location.hash = `#/models/pull/${encodeURIComponent(name)}`), hf);
    await expect.poll(() => page.getByLabel('Model', { exact: true }).inputValue()).toBe(hf);
    await page.getByTestId('pull-form').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/models');
    expect(ollama.requestsTo('/api/pull')).toHaveLength(0);

    // Suggestions as you type, by keyboard alone: ↓ moves through the list, Enter takes a name, Escape closes.
    await page.getByRole('button', { name: 'Pull a model' }).click();
    const box = page.getByRole('combobox', { name: 'Model' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('qwen');
    const list = page.getByRole('listbox', { name: 'Suggested models' });
    await list.getByRole('option', { name: /qwen3:8b/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const activeId = await box.getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${activeId}"]`).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator(`[id="${activeId}"] .mono`).textContent()).toBe('qwen3:4b');
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await screenshot(page, `models-pull-suggestions-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe('qwen3:4b');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowDown');
    await list.waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    expect(ollama.requestsTo('/api/pull')).toHaveLength(0);
    await page.getByTestId('pull-form').getByRole('button', { name: 'Close' }).click();
  });

  it('opens a pre-filled pull form from #/models/pull/<name>, shows per-layer progress, and cancels', async () => {
    await page.evaluate(() => (location.hash = '#/models/pull/llama3.2'));
    const input = page.getByLabel('Model', { exact: true });
    await expect.poll(() => input.inputValue()).toBe('llama3.2');
    await screenshot(page, 'models-pull-form');
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await job('llama3.2').and(page.locator('[data-state="running"]')).waitFor();
    const bar = job('llama3.2').getByRole('progressbar').first();
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(5);
    await expect.poll(() => job('llama3.2').getByTestId('job-status').textContent()).toMatch(/^pulling [0-9a-f]{12}$/);
    await page.getByTestId('status-transfers').getByText('Pulling llama3.2').waitFor();
    await screenshot(page, 'models-pull-progress');

    await job('llama3.2').getByRole('button', { name: 'Cancel' }).click();
    await job('llama3.2').and(page.locator('[data-state="cancelled"]')).waitFor();
    await job('llama3.2').getByText('Ollama keeps the layers downloaded so far').waitFor();
    await expect.poll(() => ollama.requestsTo('/api/pull').at(-1)?.closedEarly).toBe(true);
    await screenshot(page, 'models-pull-cancelled');
  });

  it('pulls again to success and the model appears without a refresh', async () => {
    ollama.progressIntervalMs = 5;
    ollama.progressSteps = 5;
    await job('llama3.2').getByRole('button', { name: 'Pull again' }).click();
    await job('llama3.2').and(page.locator('[data-state="success"]')).waitFor();
    // After a pull: a link straight into a chat with the model.
    expect(await job('llama3.2').getByRole('link', { name: 'Chat with this model' }).getAttribute('href')).toBe(
      '#/chat/new/ollama/llama3.2',
    );
    await page.getByTestId('models-table').getByRole('button', { name: 'llama3.2:latest', exact: true }).waitFor();
    const pulls = ollama.requestsTo('/api/pull');
    expect(pulls.at(-1)?.body).toEqual({ name: 'llama3.2', stream: true });

    // Two pulls at once show together; the embed playground and ps then see the new model.
    await page.getByRole('button', { name: 'Pull a model' }).click();
    await page.getByLabel('Model', { exact: true }).fill('nomic-embed-text');
    await page.getByRole('button', { name: 'Pull', exact: true }).click();
    await job('nomic-embed-text').and(page.locator('[data-state="success"]')).waitFor();
    // An embedding model (Ollama lists no `completion` capability) is not offered a chat: it says where it is used.
    await job('nomic-embed-text').getByTestId('no-chat').getByText('cannot chat').waitFor();
    expect(await job('nomic-embed-text').getByRole('link', { name: 'Chat with this model' }).count()).toBe(0);
    expect(await job('llama3.2').getByRole('link', { name: 'Chat with this model' }).count()).toBe(1);
    await page
      .getByTestId('models-table')
      .getByRole('button', { name: 'nomic-embed-text:latest', exact: true })
      .waitFor();
    const embed = page.getByTestId('embed');
    await embed.getByLabel('Embedding model').selectOption('nomic-embed-text:latest');
    await embed.getByLabel('Text to embed').fill('The quick brown fox');
    await embed.getByRole('button', { name: 'Embed' }).click();
    await embed.getByText('3,072 dimensions').waitFor();
    await page.getByTestId('running').getByText('nomic-embed-text:latest').waitFor();
    // Each row: Chat (a new chat with it), or why not for an embedding model; ps says when a model unloads.
    const table = page.getByTestId('models-table');
    expect(await table.getByRole('link', { name: 'Chat with llama3.2:latest' }).getAttribute('href')).toBe(
      '#/chat/new/ollama/llama3.2%3Alatest',
    );
    await table.locator('tr[data-model="nomic-embed-text:latest"]').getByText('No chat (embeddings)').waitFor();
    await page
      .getByTestId('running')
      .getByText(/^unloads in \d+ min$/)
      .first()
      .waitFor();
    await screenshot(page, 'models-list');
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await screenshot(page, `models-list-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('creates a model from another with a system prompt and parameters', async () => {
    await page.getByTestId('models-table').getByRole('button', { name: 'llama3.2:latest', exact: true }).click();
    await page.getByTestId('details').getByRole('button', { name: 'Create from…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a model from llama3.2:latest' });
    await dialog.getByLabel('New model name').fill('pirate');
    await dialog.getByLabel('System prompt').fill('Talk like a pirate.');
    await dialog.getByLabel('Temperature').fill('0.3');
    await dialog.getByLabel('Other parameters').fill('top_k 20');
    await screenshot(page, 'models-create');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await job('pirate').and(page.locator('[data-state="success"]')).waitFor();
    await page.getByTestId('models-table').getByRole('button', { name: 'pirate:latest', exact: true }).waitFor();
    expect(ollama.requestsTo('/api/create').at(-1)?.body).toEqual({
      model: 'pirate',
      from: 'llama3.2:latest',
      system: 'Talk like a pirate.',
      parameters: { top_k: 20, temperature: 0.3 },
      stream: true,
    });
  });

  it('renames a model (copy, then remove the original); a bad name is refused before any request', async () => {
    await page.getByTestId('models-table').getByRole('button', { name: 'pirate:latest', exact: true }).click();
    await page.getByTestId('details').getByRole('button', { name: 'Copy / rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy pirate:latest' });
    const copies = ollama.requestsTo('/api/copy').length;
    await dialog.getByLabel('New name').fill('bad name!');
    await dialog.getByText('not a valid Ollama model name').waitFor();
    await dialog.getByLabel('New name').press('Enter');
    expect(ollama.requestsTo('/api/copy')).toHaveLength(copies);
    await dialog.getByLabel('New name').fill('corsair');
    await dialog.getByLabel(/Remove the original/).check();
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await page.getByTestId('models-table').getByRole('button', { name: 'corsair:latest', exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('models-table').getByText('pirate:latest').count()).toBe(0);
    expect(ollama.requestsTo('/api/copy').at(-1)?.body).toEqual({ source: 'pirate:latest', destination: 'corsair' });
    await page.keyboard.press('Escape');
  });

  it('opens the details drawer, then deletes the model after confirmation', async () => {
    await page.getByTestId('models-table').getByRole('button', { name: 'llama3.2:latest', exact: true }).click();
    const details = page.getByTestId('details');
    await details.getByText('You are a helpful assistant.', { exact: true }).waitFor();
    await details.getByText('completion', { exact: true }).waitFor();
    await details.getByText('llama.context_length').waitFor();
    expect(await details.getByRole('link', { name: 'Chat with this model' }).getAttribute('href')).toBe(
      '#/chat/new/ollama/llama3.2%3Alatest',
    );
    await screenshot(page, 'models-details');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'models-details-dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));

    await details.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete llama3.2:latest?' });
    await dialog.waitFor();
    await screenshot(page, 'models-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('models-table').getByText('llama3.2:latest').count()).toBe(0);
    expect(ollama.requestsTo('/api/delete').at(-1)?.body).toEqual({ name: 'llama3.2:latest' });
    expect(ollama.models.map((m) => m.name).sort()).toEqual(['corsair:latest', 'nomic-embed-text:latest']);
    expect(errors).toEqual([]);
  });

  it('warns before a copy replaces an existing model, and counts a copy once in the disk total', async () => {
    const table = page.getByTestId('models-table');
    const summary = page.locator('.models-toolbar .small');
    await expect.poll(() => summary.textContent()).toMatch(/^2 models · /);
    const before = (await summary.textContent())!.split(' · ')[1];
    await table.getByRole('button', { name: 'corsair:latest', exact: true }).click();
    await page.getByTestId('details').getByRole('button', { name: 'Copy / rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy corsair:latest' });
    const copies = ollama.requestsTo('/api/copy').length;

    await dialog.getByLabel('New name').fill('nomic-embed-text');
    await dialog.getByText('nomic-embed-text:latest already exists. Copying replaces it').waitFor();
    await dialog.getByRole('button', { name: 'Replace nomic-embed-text:latest' }).waitFor();
    await screenshot(page, 'models-copy-overwrite-warning');
    await dialog.getByLabel('New name').fill('corsair');
    await dialog.getByText('That is this model’s own name.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Replace corsair:latest' }).isDisabled()).toBe(true);
    await dialog.getByLabel('New name').press('Enter');
    expect(ollama.requestsTo('/api/copy')).toHaveLength(copies);

    await dialog.getByLabel('New name').fill('corsair-2');
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await table.getByRole('button', { name: 'corsair-2:latest', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => summary.textContent()).toBe(`3 models · ${before}`);
  });

  it('comes back on its own when Ollama answers again after being down', async () => {
    ollama.failWith('/api/tags', 502, { times: 2 });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByRole('heading', { name: 'Could not list local models' }).waitFor();
    await page.getByText('The list comes back on its own').waitFor();
    await screenshot(page, 'models-ollama-down');
    // No click: the page retries with back-off and the table returns once /api/tags answers.
    await page.getByTestId('models-table').getByRole('button', { name: 'corsair-2:latest', exact: true }).waitFor();
    expect(ollama.requestsTo('/api/tags').length).toBeGreaterThanOrEqual(3);
    expect(errors).toEqual([]);
  });

  it('Ollama not running: the page and the status bar point to its installer, beside ollama serve', async () => {
    await ollama.stop();
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByRole('heading', { name: 'Ollama is not running' }).waitFor();
    await page.getByText('Run ollama serve in a terminal').waitFor();
    expect(await page.getByTestId('ollama-download').getAttribute('href')).toBe('https://ollama.com/download');
    // Nothing can be pulled: the button is off and says why; no error code under the message.
    expect(await page.getByRole('button', { name: 'Pull a model' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('pull-off').textContent()).toBe('Ollama is not running: start it to pull a model.');
    expect(await page.getByRole('alert').first().textContent()).not.toContain('unavailable');
    await page.getByTestId('ollama-status').click();
    expect(await page.getByTestId('status-ollama-download').getAttribute('href')).toBe('https://ollama.com/download');
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await screenshot(page, `models-ollama-not-running-${width}`);
    }
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
  });
});
