import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Worker } from 'playwright-core';
import { CatalogueService } from '../../electron/main/services/catalogue/service';
import { openApp, type WebApp } from './harness';

const data = await new CatalogueService().get();

describe('typo-tolerant search runs off the page thread', () => {
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const workers: Worker[] = [];

  beforeAll(async () => {
    ({ app, browser, page, errors } = await openApp());
    page.on('worker', (w) => workers.push(w));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('a misspelt query is answered by the search worker', async () => {
    const model = data.models.find((m) => m.id.toLowerCase().includes('whisper'))!;
    await page.getByTestId('task-groups').waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('whisper');
    const results = page.getByTestId('catalogue-results');
    await results.getByText(model.id, { exact: true }).first().waitFor();

    await page.getByRole('combobox', { name: 'Search the catalogue' }).fill('');
    await page.keyboard.type('wisper'); // no exact match: only the typo-tolerant pass finds whisper
    await results.getByText(model.id, { exact: true }).first().waitFor();
    expect(workers.filter((w) => w.url().includes('search-worker'))).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
