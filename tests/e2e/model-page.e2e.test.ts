import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import {
  BIG_CARD_ID,
  BROKEN_CARD_ID,
  DATASET_ID,
  GATED_ID,
  HOSTILE_ID,
  HUGE_DATASET_ID,
  NO_CARD_DATASET_ID,
  SPACE_ID,
  modelPageHub,
} from '../fixtures/hub-model-data';
import { tempDir } from '../helpers/app';
import { codeFont, openApp, screenshot, type WebApp } from './harness';

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const href = (kind: string, id: string) => `#/catalogue/${kind}/${encodeURIComponent(id)}`;
// The CSP follows HF_ENDPOINT, so card images load from the fixture endpoint: the gated model's without a token
// (401) and images its cards name but it does not hold (404) fail as they would on the Hub.
const unexpected = (errors: string[]) =>
  errors.filter((e) => !/Content Security Policy|status of 40[14] \((Unauthorized|Not Found)\)/.test(e));

describe('model, dataset and Space pages in Chromium (web mode, fixture Hub)', () => {
  let hub: HubFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const data = tempDir('hubdesk-e2e-model-');

  beforeAll(async () => {
    hub = await startHubFixture(modelPageHub());
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'settings.json'), JSON.stringify({ version: 1, values: { hubAccess: 'online' } }));
    ({ app, browser, page, errors } = await openApp({
      dataDir: data.path,
      env: { HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_fixtureToken0001' },
    }));
    // Tests never reach the internet: card images on the Hub's real CDN get a 1×1 PNG from here.
    await page.route(/^https:\/\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
    data.remove();
  });

  /** The text of the snippet pane shown (Monaco's rendered lines, spaces as the page shows them). */
  const editorText = async () =>
    (await page.locator('[data-testid="snippet-editor"] .monaco-editor .view-lines').innerText()).replace(
      /\u00a0/g,
      ' ',
    );

  const open = async (kind: string, id: string) => {
    // The page keeps its per-launch secret from the first load: move within it as a link would.
    await page.evaluate((h) => (location.hash = h), href(kind, id));
  };

  it('model page: card rendered, front matter as fields, licence, gated notice, params, lineage, Spaces, providers', async () => {
    await open('model', GATED_ID);
    const body = page.getByTestId('card-body');
    await body.getByRole('heading', { name: 'Llama 3.1 8B Instruct', level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('repo-card').getAttribute('aria-busy')).toBe('false');
    const text = await body.innerText();
    expect(text).not.toContain('extra_gated_prompt');
    expect(text).not.toContain('license: llama3.1');
    const fields = page.getByTestId('card-fields');
    expect(await fields.locator('[data-field="license"] dd').innerText()).toBe('llama3.1');
    expect(await fields.locator('[data-field="base_model"] dd').innerText()).toBe('meta-llama/Llama-3.1-8B');
    expect(await body.locator('table td', { hasText: 'MMLU' }).count()).toBe(1);
    expect(await body.locator('pre code').innerText()).toContain('transformers.pipeline');
    const font = await codeFont(body.locator('pre code'));
    expect(font.code).toBe(font.block);
    expect(font.code).not.toMatch(/^monospace /);

    const licenceLink = body.getByRole('link', { name: 'the license' });
    expect(await licenceLink.getAttribute('href')).toBe(`${hub.url}/${GATED_ID}/blob/main/LICENSE`);
    expect(await licenceLink.getAttribute('title')).toBe(`${hub.url}/${GATED_ID}/blob/main/LICENSE`);
    expect(await body.getByRole('link', { name: 'use policy' }).getAttribute('href')).toBe(
      `${hub.url}/${GATED_ID}/blob/main/USE_POLICY.md`,
    );
    expect(await body.getByAltText('Architecture').getAttribute('src')).toBe(
      `${hub.url}/${GATED_ID}/resolve/main/assets/arch.png`,
    );
    expect(await body.getByAltText('Benchmarks').getAttribute('src')).toBe(
      'https://cdn-uploads.huggingface.co/production/uploads/bench.png',
    );
    expect(await body.getByAltText('Tracker').getAttribute('src')).toBeNull();

    expect(await page.getByTestId('model-licence').innerText()).toMatch(/^llama3\.1 · licence text/);
    const gated = page.getByTestId('model-gated');
    expect(await gated.innerText()).toMatch(/Gated model.*token/s);
    expect(await page.getByTestId('gated-accept').getAttribute('href')).toBe(`${hub.url}/${GATED_ID}`);
    expect(await page.getByTestId('model-params').innerText()).toMatch(/8\.03B.*BF16 8\.03B/s);
    expect(await page.getByTestId('base-models').innerText()).toBe('fine-tuned from meta-llama/Llama-3.1-8B');
    const quantized = page.getByTestId('derived-quantized');
    await quantized.waitFor();
    expect(await quantized.getByRole('heading').textContent()).toMatch(/^Quantizations of this model 2$/);
    expect(await quantized.getByRole('link').allInnerTexts()).toEqual([
      'fixture-lab/Llama-3.1-8B-Instruct-GGUF',
      'second-lab/Llama-3.1-8B-Instruct-Q8-GGUF',
    ]);
    await page
      .getByTestId('derived-finetune')
      .getByRole('link', { name: 'fixture-lab/llama-3.1-8b-chat-ft' })
      .waitFor();
    await page.getByTestId('model-spaces').getByRole('link', { name: SPACE_ID }).waitFor();
    expect(await page.getByTestId('model-providers').innerText()).toMatch(/together.*live/s);
    await page.getByTestId('repo-tabs').scrollIntoViewIfNeeded();
    await screenshot(page, 'model-page-card');
    await page.getByTestId('model-facts').scrollIntoViewIfNeeded();
    await screenshot(page, 'model-page-facts');
  });

  it('Files tab: tree with sizes, LFS marks and folder totals; folders open with the keyboard', async () => {
    await page.getByTestId('repo-tab-files').click();
    const files = page.getByTestId('repo-files');
    await files.waitFor();
    expect(await page.getByTestId('files-summary').innerText()).toMatch(/^7 files · 24\.1 GB/);
    const folder = files.locator('[data-path="original"] > button');
    expect(await folder.getAttribute('aria-expanded')).toBe('false');
    expect(await folder.innerText()).toMatch(/original\/\s+2 files\s+16\.1 GB/);
    await folder.focus();
    await page.keyboard.press('Enter');
    expect(await folder.getAttribute('aria-expanded')).toBe('true');
    const pth = files.locator('[data-path="original/consolidated.00.pth"]');
    expect(await pth.innerText()).toMatch(/consolidated\.00\.pth\s+LFS\s+16\.1 GB/);
    expect(await files.locator('[data-path="config.json"] .badge').count()).toBe(0);
    expect(await files.locator('[data-path="config.json"] a').getAttribute('href')).toBe(
      `${hub.url}/${GATED_ID}/blob/main/config.json`,
    );
    await screenshot(page, 'model-page-files');
  });

  it('lineage links go both ways: a quantization links back to its base', async () => {
    await page
      .getByTestId('derived-quantized')
      .getByRole('link', { name: 'fixture-lab/Llama-3.1-8B-Instruct-GGUF' })
      .click();
    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe('fixture-lab/Llama-3.1-8B-Instruct-GGUF');
    const base = page.getByTestId('base-models');
    expect(await base.innerText()).toBe(`quantized from ${GATED_ID}`);
    expect(await page.getByTestId('model-gguf').innerText()).toMatch(/llama.*131,072 tokens.*8\.03B/s);
    await base.getByRole('link').click();
    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe(GATED_ID);
  });

  it('a README carrying <script>, onerror, style and overlays renders inert', async () => {
    await page.evaluate(() => ((window as unknown as { __pwned?: string }).__pwned = undefined));
    await open('model', HOSTILE_ID);
    const body = page.getByTestId('card-body');
    await body.getByRole('heading', { name: 'Totally normal model' }).waitFor();
    await expect.poll(() => page.getByTestId('repo-card').getAttribute('aria-busy')).toBe('false');
    const report = await page.evaluate(() => {
      const root = document.querySelector('[data-testid="card-body"]')!;
      const all = [...root.querySelectorAll('*')];
      const overlay = [...root.querySelectorAll('div')].find((d) => d.textContent?.includes('Click to continue'));
      const links = [...root.querySelectorAll('a')].map((a) => ({
        text: a.textContent,
        href: a.getAttribute('href'),
        title: a.getAttribute('title'),
      }));
      return {
        pwned: (window as unknown as { __pwned?: string }).__pwned,
        handlers: all.filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
        styled: all.filter((el) => el.hasAttribute('style') || el.hasAttribute('class') || el.hasAttribute('id'))
          .length,
        banned: root.querySelectorAll('script, style, iframe, form, input, svg, object, embed').length,
        overlayPosition: overlay ? getComputedStyle(overlay).position : 'missing',
        topAtCentre: document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest('[data-testid="card-body"]')
          ? 'card'
          : 'app',
        bodyDisplay: getComputedStyle(document.body).display,
        links,
      };
    });
    expect(report).toMatchObject({ handlers: 0, styled: 0, banned: 0, overlayPosition: 'static' });
    expect(report.pwned).toBeUndefined();
    expect(report.bodyDisplay).not.toBe('none');
    // A link whose text names another address shows where it really goes, in its title and after its text.
    const phish = report.links.find((l) => l.text?.startsWith('https://huggingface.co/safe-looking-link'))!;
    expect(phish.text).toBe('https://huggingface.co/safe-looking-link (evil.example)');
    expect(phish.href).toBe('https://evil.example/phish');
    expect(phish.title).toBe('https://evil.example/phish');
    expect(report.links.find((l) => l.text === 'click me')!.href).toBeNull();
    expect(report.links.find((l) => l.text === 'data link')?.href ?? null).toBeNull();
    await page.getByTestId('card-body').scrollIntoViewIfNeeded();
    await screenshot(page, 'model-page-hostile-card');
  });

  it('a 5 MB README shows its first part with a note; broken markdown still renders', async () => {
    await open('model', BIG_CARD_ID);
    await page.getByTestId('card-truncated').waitFor();
    expect(await page.getByTestId('card-truncated').innerText()).toMatch(
      /Only the first 1,?000 KB|Only the first 1(\.0)? MB/,
    );
    await page.getByTestId('card-body').getByRole('heading', { name: 'Big card' }).waitFor();
    await open('model', BROKEN_CARD_ID);
    await page.getByTestId('card-body').getByRole('heading', { name: 'Broken' }).waitFor();
    expect(await page.getByTestId('card-body').innerText()).toContain('never closed fence');
  });

  it('a Space page: sdk, status, the models it uses, its card', async () => {
    await open('app', SPACE_ID);
    await page.getByTestId('app-view').waitFor();
    expect(await page.getByTestId('space-sdk').innerText()).toBe('gradio');
    expect(await page.getByTestId('space-stage').innerText()).toBe('running');
    await page.getByTestId('card-body').getByRole('heading', { name: 'Llama chat' }).waitFor();
    expect(await page.getByTestId('card-fields').locator('[data-field="sdk"] dd').innerText()).toBe('gradio');
    await screenshot(page, 'space-page');
    expect(await page.getByTestId('space-app').getByRole('link').getAttribute('href')).toBe(
      'https://fixture-lab-llama-chat.hf.space',
    );
    await page.getByTestId('space-api-toggle').click();
    await expect.poll(() => editorText()).toContain(`client = Client("${SPACE_ID}")`);
    await page.getByTestId('space-models').getByRole('link', { name: GATED_ID }).click();
    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe(GATED_ID);
  });

  it('a dataset page, and a 50,000-file dataset listed in bounded parts', async () => {
    await open('dataset', DATASET_ID);
    expect(await page.getByTestId('repo-licence').innerText()).toBe('cc-by-4.0');
    await page.getByTestId('card-body').getByRole('heading', { name: 'Speech corpus' }).waitFor();
    const tags = page.getByTestId('repo-tags');
    expect(await tags.locator('[data-group="size_categories"]').innerText()).toMatch(/10K – 100K rows/);
    expect(await tags.locator('[data-group="task_categories"]').innerText()).toMatch(/automatic-speech-recognition/);
    // "Use this dataset", by keyboard: the button, then the panes; pandas reads a Parquet file the repo lists.
    await page.getByTestId('dataset-use-toggle').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText()).toContain(`load_dataset("${DATASET_ID}")`);
    await page.getByTestId('client-pandas').click();
    await expect
      .poll(() => editorText())
      .toContain(`read_parquet("hf://datasets/${DATASET_ID}/data/train-00000-of-00001.parquet")`);
    await screenshot(page, 'dataset-use');

    // No README, and a Hub (a mirror) answering 404 without its error code: a quiet "No card", no alert.
    hub.fail(`/datasets/${NO_CARD_DATASET_ID}/resolve/main/README.md`, { status: 404, body: 'Not Found' });
    await page.setViewportSize({ width: 1024, height: 700 });
    await open('dataset', NO_CARD_DATASET_ID);
    await page.getByTestId('repo-card-none').waitFor();
    expect(await page.getByTestId('repo-card-none').innerText()).toBe('No card: this dataset has no README.');
    expect(await page.getByTestId('dataset-view').getByRole('alert').allInnerTexts()).toEqual([]);
    await screenshot(page, 'dataset-no-card-1024');
    await page.setViewportSize({ width: 1280, height: 800 });
    hub.clearFailures();
    await open('dataset', HUGE_DATASET_ID);
    await page.getByTestId('repo-stats').waitFor();
    await page.getByTestId('repo-tab-files').click();
    const bounded = page.getByTestId('files-bounded');
    await bounded.waitFor();
    expect(await bounded.innerText()).toMatch(/Showing the first 5,000 entries/);
    expect(await page.getByTestId('files-summary').innerText()).toMatch(/^4,995 files/);
    const shard = page.getByTestId('repo-files').locator('[data-path="data"] > button');
    await shard.click();
    await page.getByTestId('repo-files').locator('[data-path="data/shard-00"] > button').click();
    expect(await page.getByTestId('repo-files').locator('li.repo-file-row').count()).toBe(200);
    await bounded.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.getByTestId('files-summary').innerText()).toMatch(/^9,990 files/);
    await screenshot(page, 'dataset-files-bounded');
    expect(unexpected(errors)).toEqual([]);
  });
});
