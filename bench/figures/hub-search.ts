import { startHubFixture, type HubFixtureModel } from '../../tests/fixtures/hub';
import { startBenchApp } from '../lib/app';
import { launchChromium } from '../lib/browser';
import { figure, percentile, type BenchContext, type Figure } from '../lib/measure';

const TARGET_ROWS = 1000;

/** 1,100 models whose ids all match "model": 37 pages of 30 for one query. */
function manyModels(): HubFixtureModel[] {
  return Array.from({ length: 1100 }, (_, i) => ({
    id: `bench-org-${i % 37}/model-${i}`,
    pipeline_tag: 'text-generation',
    library_name: 'transformers',
    tags: ['transformers', 'text-generation'],
    downloads: 1_000_000 - i,
    likes: i % 500,
    trendingScore: 1100 - i,
  }));
}

interface Pair {
  count: number;
  ms: number;
}

/**
 * Hub search: from a page's answer reaching the renderer to the frame that paints its rows (the store's
 * `hub-search:answer` mark → the list's `hub-search:painted` mark), through the built web mode against the Hub fixture.
 * Scrolling loads page after page by the `Link` cursor until the list holds 1,000 results; the figure is the pages
 * landing in a list of 900+ rows, the baseline the pages landing in a list of 60–150 rows in the same run (the
 * first page is left out of both: it mounts the list).
 */
export async function hubSearch(ctx: BenchContext): Promise<Figure[]> {
  const hub = await startHubFixture({ models: manyModels(), datasets: [], spaces: [] });
  const browser = await launchChromium();
  const big: number[] = [];
  const small: number[] = [];
  try {
    for (let run = 0; run < ctx.runs(3, 1); run++) {
      const app = await startBenchApp(browser, { HF_ENDPOINT: hub.url });
      try {
        await app.client.call('settings.update', { hubAccess: 'online' });
        const { page } = app;
        await page.reload();
        // The landing lists the Hub's trending models first: wait for the query's own first page, and measure from it.
        const answered = page.waitForResponse(
          (r) => r.url().includes('hub.search') && (r.request().postData() ?? '').includes('"search":"model"'),
        );
        await page.locator('#catalogue-search').fill('model');
        await answered;
        const list = page.getByTestId('hub-list-models');
        await list.locator('a.hub-row').first().waitFor();
        await page.evaluate(() => performance.clearMarks());
        const tab = page.getByTestId('hub-tab-models');
        let loaded = 0;
        while (loaded < TARGET_ROWS) {
          const before = loaded;
          await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          await page.waitForFunction(
            ({ sel, before }) => {
              const m = /(\d+)\+?$/.exec(document.querySelector(sel)?.textContent ?? '');
              return !!m && Number(m[1]) > before;
            },
            { sel: '[data-testid="hub-tab-models"]', before },
          );
          loaded = Number(/(\d+)\+?$/.exec((await tab.textContent()) ?? '')![1]);
        }
        // The last page's paint mark comes one frame after its rows.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
        const pairs: Pair[] = await page.evaluate(() => {
          type M = PerformanceMark & { detail: { kind: string; count: number } };
          const answers = performance.getEntriesByName('hub-search:answer') as M[];
          const painted = performance.getEntriesByName('hub-search:painted') as M[];
          const out: { count: number; ms: number }[] = [];
          for (const a of answers) {
            if (a.detail.kind !== 'models') continue;
            const p = painted.find((x) => x.detail.kind === 'models' && x.detail.count === a.detail.count);
            if (p && p.startTime >= a.startTime) out.push({ count: a.detail.count, ms: p.startTime - a.startTime });
          }
          return out;
        });
        ctx.log(`run ${run + 1}: ${pairs.length} pages, ${loaded} rows`);
        for (const p of pairs) {
          if (p.count > 30 && p.count <= 150) small.push(p.ms);
          if (p.count >= 900) big.push(p.ms);
        }
      } finally {
        await app.stop();
      }
    }
  } finally {
    await browser.close();
    await hub.stop();
  }
  return [
    figure('Hub search: answer → painted, list of 1,000 results', 'ms', big, {
      baseline: small,
      target: '≤ 16.7 ms (one frame); baseline: pages into a list of 60–150 rows',
    }),
    figure('Hub search: answer → painted p95, list of 1,000 results', 'ms', [percentile(big, 95)], {
      note: `${big.length} pages of 900+ rows`,
    }),
  ];
}
