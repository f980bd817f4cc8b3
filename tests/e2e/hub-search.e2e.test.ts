import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { defaultHubModels, startHubFixture, type HubFixture } from '../fixtures/hub';
import { defaultHubDatasets, defaultHubSpaces } from '../fixtures/hub-list-data';
import { openApp, screenshot, type WebApp } from './harness';

const GGUF = 'unsloth/Llama-3.2-1B-Instruct-GGUF';

describe('Hub-first search in Chromium (web mode)', () => {
  let hub: HubFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    hub = await startHubFixture();
    ({ app, browser, page, errors } = await openApp({ firstRun: true, env: { HF_ENDPOINT: hub.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
  });

  /** The result the search box (a combobox) points at with aria-activedescendant. */
  const activeId = () =>
    page.evaluate(() => {
      const id = document.activeElement?.getAttribute('aria-activedescendant');
      return id ? (document.getElementById(id)?.getAttribute('data-id') ?? null) : null;
    });

  it('first-run choice → search a GGUF repo by name, keyboard only: type, results, open', async () => {
    await page.getByTestId('first-run').waitFor();
    expect(hub.requests).toHaveLength(0);
    await page.keyboard.press('Enter'); // "Use the Hugging Face Hub" has the focus
    const models = page.getByTestId('hub-list-models');
    await models.waitFor();
    // The first request is the one the choice allowed; none came before it.
    expect(hub.requests.length).toBeGreaterThan(0);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('llama-3.2-1b');
    await models.locator(`a[data-id="${GGUF}"]`).waitFor();
    await expect.poll(() => models.locator('a.hub-row').count()).toBe(1);
    expect(await page.getByTestId('hub-tab-models').textContent()).toMatch(/Models\s*1$/);
    // Typing fast asked the Hub once per settled query, not per keystroke.
    const searches = hub.requestsTo('/api/models').map((r) => r.query.get('search'));
    expect(searches.filter((s) => s && s !== 'llama-3.2-1b')).toEqual([]);
    await screenshot(page, 'hub-search-gguf');

    await page.keyboard.press('ArrowDown');
    await expect.poll(activeId).toBe(GGUF);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe(GGUF);
    await page.goBack();
    await models.locator(`a[data-id="${GGUF}"]`).waitFor();
  });

  it('"Runs locally: GGUF" keeps GGUF repos; embedded tasks stay above the Hub list; the catalogue mark', async () => {
    const input = page.locator('#catalogue-search');
    await input.fill('');
    await page.getByRole('combobox', { name: 'Runs locally' }).selectOption('gguf');
    const models = page.getByTestId('hub-list-models');
    const asked = () =>
      hub.requestsTo('/api/models').some((r) => !r.query.get('search') && r.query.getAll('filter').join() === 'gguf');
    await expect.poll(asked).toBe(true);
    await expect.poll(() => models.getAttribute('aria-busy')).toBe('false');
    expect(await models.locator('a.hub-row').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await input.fill('speech recognition');
    await page.getByTestId('embedded-matches').getByText('Automatic Speech Recognition').waitFor();
    await page.getByTestId('hub-empty').getByText('No models on the Hub match').waitFor();
    await screenshot(page, 'hub-search-embedded-tasks');
    await input.fill('whisper');
    // openai/whisper-large-v3 is named by @huggingface/tasks: marked in the Hub list, not listed twice.
    const row = models.locator('a[data-id="openai/whisper-large-v3"]');
    await row.getByText('in catalogue').waitFor();
    await screenshot(page, 'hub-search-whisper');
  });

  it('a dataset search: the Datasets tab, count with "+", infinite scroll to the last page', async () => {
    await page.locator('#catalogue-search').fill('speech');
    await page.getByTestId('hub-tab-datasets').click();
    const list = page.getByTestId('hub-list-datasets');
    const expected = defaultHubDatasets().filter((d) => d.id.includes('speech'));
    await expect.poll(() => page.getByTestId('hub-tab-datasets').textContent()).toMatch(/Datasets\s*30\+$/);
    await list.locator('a.hub-row').first().waitFor();
    await screenshot(page, 'hub-search-datasets');
    // Scrolling to the end asks for the next page by its cursor, once.
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect
      .poll(() => page.getByTestId('hub-tab-datasets').textContent())
      .toMatch(new RegExp(`Datasets\\s*${expected.length}$`));
    const reqs = hub.requestsTo('/api/datasets').filter((r) => r.query.get('search') === 'speech');
    expect(reqs.filter((r) => r.query.get('cursor')).length).toBe(1);
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = [...expected].sort((a, b) => (a.trendingScore ?? 0) - (b.trendingScore ?? 0))[0];
    await list.locator(`a[data-id="${last.id}"]`).waitFor();
  });

  it('a Space search: the Spaces tab, the SDK filter, sdk shown; its sort shows the order sent', async () => {
    await page.locator('#catalogue-search').fill('whisper');
    // "Most downloads" chosen on Models: Spaces have no download count, so they are asked (and shown) by likes.
    const sort = page.getByRole('combobox', { name: 'Sort' });
    await sort.selectOption('downloads');
    await page.getByTestId('hub-tab-spaces').click();
    await expect
      .poll(() => sort.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0].text))
      .toBe('Most likes');
    await expect.poll(() => hub.requestsTo('/api/spaces').at(-1)?.query.get('sort')).toBe('likes');
    await sort.selectOption('trending');
    await page.getByRole('combobox', { name: 'SDK' }).selectOption('streamlit');
    const list = page.getByTestId('hub-list-spaces');
    const expected = defaultHubSpaces().filter((s) => s.id.includes('whisper') && s.sdk === 'streamlit');
    await expect.poll(() => list.locator('a.hub-row').count()).toBe(expected.length);
    expect(await list.locator('.hub-row-meta').first().textContent()).toContain('streamlit');
    expect(hub.requestsTo('/api/spaces').at(-1)!.query.getAll('filter')).toEqual(['streamlit']);
    await screenshot(page, 'hub-search-spaces');
    // Arrow keys move between tabs.
    await page.getByTestId('hub-tab-spaces').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByTestId('hub-tab-datasets').getAttribute('aria-selected')).toBe('true');
    await page.getByRole('combobox', { name: 'SDK' }).waitFor({ state: 'detached' });
  });

  it('typing fast: a slow answer to an older query never replaces the newer one', async () => {
    await page.getByTestId('hub-tab-models').click();
    const list = page.getByTestId('hub-list-models');
    const input = page.locator('#catalogue-search');
    hub.fault('/api/models', { delayMs: 1500, times: 1 });
    const slow = page.waitForResponse((r) => {
      const body = JSON.parse(r.request().postData() ?? '{}') as { kind?: string; search?: string };
      return body.kind === 'models' && body.search === 'bert';
    });
    await input.fill('bert');
    await expect.poll(() => hub.requestsTo('/api/models').some((r) => r.query.get('search') === 'bert')).toBe(true);
    await input.fill('whisper-tiny');
    await list.locator('a[data-id="openai/whisper-tiny"]').waitFor();
    await slow;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    const ids = await list.locator('a.hub-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id!.includes('whisper-tiny'))).toBe(true);
  });

  it('429 and 5xx: a message that says what to do, and a retry that works', async () => {
    await page.getByTestId('hub-tab-models').click();
    hub.fail('/api/models', {
      status: 429,
      headers: { 'retry-after': '30' },
      body: { error: 'Too many requests' },
      times: 1,
    });
    await page.locator('#catalogue-search').fill('google-bert');
    await page.getByText(/Try again in 30 s/).waitFor();
    await screenshot(page, 'hub-search-429');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('hub-list-models').locator('a[data-id="google-bert/bert-base-uncased"]').waitFor();
    hub.fail('/api/models', { status: 503, body: { error: 'Service Unavailable' } });
    await page.locator('#catalogue-search').fill('bert-base');
    await page.getByText(/having trouble \(HTTP 503\)/).waitFor();
    hub.clearFailures();
  });

  it("a library page lists the library's top Hub models by downloads", async () => {
    await page.goto(`${app.origin}/#/catalogue/library/transformers`);
    const top = page.getByTestId('library-top-models');
    const expected = defaultHubModels()
      .filter((m) => !m.private && (m.library_name === 'transformers' || (m.tags ?? []).includes('transformers')))
      .sort((a, b) => (b.downloads ?? 0) - (a.downloads ?? 0))
      .slice(0, 10)
      .map((m) => m.id);
    await expect.poll(() => top.locator('li a').allTextContents()).toEqual(expected);
    const q = hub.requestsTo('/api/models').at(-1)!.query;
    expect([q.get('library'), q.get('sort'), q.get('limit')]).toEqual(['transformers', 'downloads', '10']);
    await screenshot(page, 'hub-search-library-top');
  });

  it('resting the pointer on a result loads its page on the way: a slow Hub, and the click still opens it complete', async () => {
    // The Hub takes 400 ms per model answer: longer than a page's address waits for its answers (120 ms).
    hub.fault('/api/models/openai/whisper-', { delayMs: 400 });
    hub.fault('/openai/whisper-', { delayMs: 400 });
    try {
      await page.goto(`${app.origin}/#/catalogue`);
      await page.locator('#catalogue-search').fill('whisper');
      const models = page.getByTestId('hub-list-models');
      await models.locator('a[data-id="openai/whisper-tiny"]').waitFor();
      const sawLoading = async (open: () => Promise<void>) => {
        await page.evaluate(() => {
          const w = window as unknown as { __sawLoading: boolean; __mo?: MutationObserver };
          w.__sawLoading = false;
          w.__mo?.disconnect();
          w.__mo = new MutationObserver(() => {
            if (document.body.textContent?.includes('Looking for this model…')) w.__sawLoading = true;
          });
          w.__mo.observe(document.body, { subtree: true, childList: true, characterData: true });
        });
        await open();
        await page.getByTestId('model-facts').waitFor();
        return page.evaluate(() => (window as unknown as { __sawLoading: boolean }).__sawLoading);
      };

      // Clicked at once: the page shows its loading state while the slow Hub answers.
      expect(await sawLoading(() => models.locator('a[data-id="openai/whisper-base"]').click())).toBe(true);
      await page.goBack();
      await models.locator('a[data-id="openai/whisper-tiny"]').waitFor();

      // Rested on first: by the click its details and card are in, and the page opens complete.
      await models.locator('a[data-id="openai/whisper-tiny"]').hover();
      await expect.poll(() => hub.requestsTo('/api/models/openai/whisper-tiny').length).toBeGreaterThan(0);
      await page.waitForTimeout(1_000);
      expect(await sawLoading(() => models.locator('a[data-id="openai/whisper-tiny"]').click())).toBe(false);
      await expect.poll(() => page.getByTestId('model-id').textContent()).toBe('openai/whisper-tiny');
    } finally {
      hub.clearFaults();
    }
  });

  it('offline: the embedded catalogue, and Hub pages seen before from the cache with their age', async () => {
    await page.goto(`${app.origin}/#/settings`);
    await page.getByTestId('hub-access-offline').click();
    await expect.poll(() => page.getByTestId('hub-access-offline').getAttribute('aria-checked')).toBe('true');
    const before = hub.requests.length;
    await page.goto(`${app.origin}/#/catalogue`);
    await page.locator('#catalogue-search').fill('whisper');
    await page.getByTestId('catalogue-results').waitFor();
    const seen = page.getByTestId('hub-search');
    await seen.getByRole('heading', { name: 'Seen on the Hub' }).waitFor();
    await seen.getByTestId('hub-cache-age').waitFor();
    expect(await seen.getByTestId('hub-cache-age').textContent()).toMatch(/cached · (just now|\d+ min ago)/);
    await seen.locator('a[data-id="openai/whisper-large-v3"]').waitFor();
    await screenshot(page, 'hub-search-offline-cache');
    expect(hub.requests.length).toBe(before);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
