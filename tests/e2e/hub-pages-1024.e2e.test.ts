import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { defaultHubModels, startHubFixture, type HubFixture } from '../fixtures/hub';
import { modelPageHub, NO_CARD_DATASET_ID, SPACE_ID } from '../fixtures/hub-model-data';
import { tempDir } from '../helpers/app';
import { axeViolations, formatFindings, settled } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const GGUF = defaultHubModels().find((m) => m.tags?.includes('gguf'))!.id;
const href = (kind: string, id: string) => `#/catalogue/${kind}/${encodeURIComponent(id)}`;

/** The Hub pages a newcomer meets, each with what shows it is painted. */
/** A part dimmed while it refreshes (the workbench's snippets, a Hub list). */
const DIMMED = '.sw-stale, .hub-list.stale, [aria-busy="true"]';

const pages: { name: string; hash: string; ready: string }[] = [
  { name: 'start', hash: '#/catalogue', ready: '[data-testid="runs-here"] [data-verdict]' },
  { name: 'model', hash: href('model', GGUF), ready: '[data-testid="snippet-workbench"]' },
  { name: 'dataset-no-card', hash: href('dataset', NO_CARD_DATASET_ID), ready: '[data-testid="repo-card-none"]' },
  { name: 'space', hash: href('app', SPACE_ID), ready: '[data-testid="space-sdk"]' },
  { name: 'task', hash: '#/catalogue/task/text-generation', ready: '[data-testid="task-models"]' },
];

/**
 * What does not hold at this size: the page scrolling sideways, and text cut off without an ellipsis (an element
 * that hides its overflow, is wider inside than out, and neither ends in "…" nor scrolls). Monaco draws its own.
 */
function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) out.push(`the page scrolls sideways: ${root.scrollWidth}px`);
    for (const el of document.querySelectorAll<HTMLElement>('#root *')) {
      if (el.closest('.monaco-editor') || el.clientWidth <= 1 || el.scrollWidth <= el.clientWidth + 1) continue;
      const s = getComputedStyle(el);
      if (s.overflowX !== 'hidden' && s.overflowX !== 'clip') continue;
      if (s.textOverflow === 'ellipsis' || !el.textContent?.trim()) continue;
      const name = `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`;
      out.push(`${name} cuts "${el.textContent.trim().slice(0, 40)}" (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return out;
  });
}

describe('the Hub pages at 1024×700, both themes', () => {
  let hub: HubFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  const data = tempDir('hubdesk-e2e-1024-');

  beforeAll(async () => {
    hub = await startHubFixture(modelPageHub());
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'settings.json'), JSON.stringify({ version: 1, values: { hubAccess: 'online' } }));
    ({ app, browser, page } = await openApp({ dataDir: data.path, env: { HF_ENDPOINT: hub.url } }));
    await page.route(/^https:\/\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
    await page.setViewportSize({ width: 1024, height: 700 });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
    data.remove();
  });

  it('no sideways scroll, no text cut without an ellipsis, axe 0 serious', async () => {
    const faults: string[] = [];
    for (const p of pages) {
      await page.goto(`${app.origin}/${p.hash}`);
      await page
        .locator(p.ready)
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(async (e: Error) => {
          await screenshot(page, `hub-1024-${p.name}-not-ready`);
          throw e;
        });
      // A page still refreshing an answer (the workbench's snippets, a Hub list) is dimmed: judge it once in.
      await page.locator(DIMMED).first().waitFor({ state: 'detached' });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.waitForFunction((t) => document.documentElement.dataset.theme === t, colorScheme);
        await settled(page);
        const state = `${p.name} [${colorScheme}]`;
        faults.push(...(await layoutFaults(page)).map((f) => `${state}: ${f}`));
        // A refresh can dim a part again after the page first settled (the workbench asks for its snippets once the
        // fit answers): judge the page when no part is dimmed, asking again while one was; a real fault stays.
        let axe = await judged(page);
        for (let i = 0; i < 2 && axe.length; i++) axe = await judged(page);
        if (axe.length) faults.push(formatFindings(state, axe));
        await screenshot(page, `hub-1024-${p.name}-${colorScheme}`);
        // What sits lower (the app scrolls inside its main pane): checked above, looked at here.
        await page
          .locator(p.ready)
          .first()
          .evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await screenshot(page, `hub-1024-${p.name}-${colorScheme}-lower`);
        await page
          .locator(p.ready)
          .first()
          .evaluate((el) => el.closest('main')?.scrollTo(0, 0));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(faults).toEqual([]);
  });
});

/** axe's findings once no part of the page is dimmed for a refresh and transitions have ended. */
async function judged(page: Page) {
  await page.locator(DIMMED).first().waitFor({ state: 'detached' });
  await settled(page);
  return axeViolations(page);
}
