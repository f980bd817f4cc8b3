import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MODEL_LIBRARIES_UI_ELEMENTS, TASKS_DATA } from '@huggingface/tasks';
import { buildCatalogue } from '../../electron/main/services/catalogue/build';
import { ggufQuants } from '../../electron/main/services/hub/gguf';
import { defaultHubModels, startHubFixture, type HubFixture } from '../fixtures/hub';
import { openApp, screenshot, type WebApp } from './harness';

const data = buildCatalogue('e2e');
const libs = MODEL_LIBRARIES_UI_ELEMENTS as unknown as Record<string, { prettyLabel: string }>;

describe('catalogue in Chromium (web mode)', () => {
  let hub: HubFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    hub = await startHubFixture();
    ({ app, browser, page, errors } = await openApp({ env: { HF_ENDPOINT: hub.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
  });

  it('browses tasks by modality with nothing sent to the Hub', async () => {
    await page.getByTestId('task-groups').waitFor();
    for (const m of data.modalities.filter((m) => data.tasks.some((t) => t.modality === m.id)))
      await page.getByRole('heading', { name: m.label }).waitFor();
    await screenshot(page, 'catalogue-home');
    expect(hub.requests).toHaveLength(0);
  });

  it('search "whisper" → model → its task → a library page', async () => {
    const model = data.models.find((m) => m.id.toLowerCase().includes('whisper'))!;
    const task = data.tasks.find((t) => t.id === model.pipeline_tag)!;
    const lib = task.libraries[0];

    await page.keyboard.press('Control+k');
    await page.keyboard.type('whisper');
    const results = page.getByTestId('catalogue-results');
    await results.getByText(model.id, { exact: true }).first().waitFor();
    await screenshot(page, 'catalogue-search-whisper');
    await results.getByText(model.id, { exact: true }).first().click();

    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe(model.id);
    await page.getByTestId('use-this-model').getByRole('heading', { name: 'Use this model' }).waitFor();
    await screenshot(page, 'catalogue-model-embedded');

    await page.getByTestId('model-task').getByRole('link').click();
    await page.getByRole('heading', { name: task.label!, level: 1 }).waitFor();
    await page.getByTestId('task-models').waitFor();
    await screenshot(page, 'catalogue-task');

    await page.getByTestId('task-libraries').getByRole('link', { name: libs[lib].prettyLabel, exact: true }).click();
    await page.getByTestId('library-view').getByRole('heading', { name: libs[lib].prettyLabel }).waitFor();
    await screenshot(page, 'catalogue-library');
    expect(hub.requests).toHaveLength(0);
  });

  it('a task with no data shows what is known', async () => {
    const missing = Object.keys(TASKS_DATA).find((k) => !(TASKS_DATA as Record<string, unknown>)[k])!;
    await page.goto(`${app.origin}/#/catalogue/task/${missing}`);
    await page.getByTestId('no-task-view').getByText('No task page yet').waitFor();
    await page.getByRole('heading', { name: data.tasks.find((t) => t.id === missing)!.name }).waitFor();
    await screenshot(page, 'catalogue-task-missing');
  });

  it('a canonical task leads to its canonical page with a note', async () => {
    await page.goto(`${app.origin}/#/catalogue/task/summarization`);
    await page.getByTestId('canonical-note').waitFor();
    await page
      .getByRole('heading', { name: data.tasks.find((t) => t.id === 'text-generation')!.label!, level: 1 })
      .waitFor();
  });

  it('Hub access on (Settings): a model page from the Hub list', async () => {
    await page.goto(`${app.origin}/#/settings`);
    await page.getByTestId('hub-access-online').click();
    await expect.poll(() => page.getByTestId('hub-access-online').getAttribute('aria-checked')).toBe('true');
    await page.goto(`${app.origin}/#/catalogue`);

    // The online start page: the tasks, the trending GGUF repos with a verdict, the pages opened above.
    const whisper = data.models.find((m) => m.id.toLowerCase().includes('whisper'))!;
    const task = data.tasks.find((t) => t.id === whisper.pipeline_tag)!;
    await page.locator('#catalogue-search').fill(''); // the earlier tests' query comes back with the catalogue
    const start = page.getByTestId('start-page');
    await start.getByTestId('task-groups').waitFor();
    const gguf = defaultHubModels().find((m) => m.tags?.includes('gguf'))!;
    const fitRow = start.getByTestId('runs-here').locator(`li[data-id="${gguf.id}"]`);
    await fitRow.locator('[data-verdict]').waitFor();
    expect(await fitRow.textContent()).toMatch(/Q\w+ · [\d.]+ [MG]B/);
    const asked = hub.requestsTo('/api/models').find((r) => r.query.getAll('filter').includes('gguf'));
    expect(asked?.query.get('sort')).toBe('trendingScore');
    const recent = start.getByTestId('recently-used');
    await recent.getByRole('link', { name: task.label!, exact: true }).waitFor();
    await page.getByTestId('hub-list-models').waitFor(); // the trending lists stay below
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => window.scrollTo(0, 0));
      // "Runs on this machine" is on the first screen, not below two screens of task links (issue #40 item 15).
      const runs = (await start.getByTestId('runs-here').boundingBox())!;
      expect(runs.y, `at ${width} px`).toBeLessThan(900 - 100);
      await screenshot(page, `catalogue-start-online-${width}`);
      await start.getByTestId('runs-here').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await screenshot(page, `catalogue-start-online-${width}-runs`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // A task page leads to the Hub list filtered by that task (keyboard: focus the link, Enter).
    await recent.getByRole('link', { name: task.label!, exact: true }).click();
    const browse = page.getByTestId('task-browse-hub');
    await browse.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => hub.requestsTo('/api/models').some((r) => r.query.get('pipeline_tag') === task.id))
      .toBe(true);
    await expect.poll(() => start.count()).toBe(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await start.waitFor();

    await page.locator('#catalogue-search').fill('whisper');
    const list = page.getByTestId('hub-list-models');
    const model = defaultHubModels().find(
      (m) => m.id.startsWith('distil-whisper/') && m.library_name === 'transformers',
    )!;
    await list.locator(`a[data-id="${model.id}"]`).click();
    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe(model.id);
    await page.getByText('live from the Hub').waitFor();
    await page.getByTestId('model-library').getByText(libs[model.library_name!].prettyLabel).waitFor();
    await screenshot(page, 'catalogue-hub-model');
  });

  it('a GGUF repo lists its quantizations in order with a picker and an inline Ollama pull', async () => {
    const id = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent(id)}`);
    const quants = page.getByTestId('model-quants');
    await quants.waitFor();
    const labels = await quants
      .getByTestId('quant-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-quant')));
    const src = defaultHubModels().find((m) => m.id === id)!;
    expect(labels).toEqual(ggufQuants(src.siblings).map((q) => q.label));
    expect(labels.length).toBeGreaterThan(2);
    await quants.getByRole('radio', { name: 'Q8_0' }).check();
    await expect.poll(() => quants.getByTestId('pull-inline').textContent()).toContain(`hf.co/${id}:Q8_0`);
    await page.getByTestId('run-ollama').waitFor();
    await screenshot(page, 'catalogue-gguf');
  });

  it('providers from the mapping; dark theme', async () => {
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent('meta-llama/Llama-3.1-8B-Instruct')}`);
    const providers = page.getByTestId('model-providers');
    await providers.getByText('together').waitFor();
    await providers.getByText('staging').waitFor();
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'catalogue-providers-dark');
    await page.goto(`${app.origin}/#/catalogue/task/automatic-speech-recognition`);
    await page.getByTestId('task-demo').waitFor();
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'catalogue-task-dark');
  });

  it('errors are shown in place: a model the Hub does not have', async () => {
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent('nobody/not-there')}`);
    await page.getByText('Could not load this model from the Hub').waitFor();
    await page.getByText('has no model "nobody/not-there"').waitFor();
    await screenshot(page, 'catalogue-model-404');
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
  });
});
