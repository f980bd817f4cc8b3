import type { Page } from 'playwright-core';
import { buildCatalogue } from '../../electron/main/services/catalogue/build';
import { startHubFixture } from '../../tests/fixtures/hub';
import { GATED_ID, modelPageHub } from '../../tests/fixtures/hub-model-data';
import { startBenchApp } from '../lib/app';
import { launchChromium } from '../lib/browser';
import { figure, type BenchContext, type Figure } from '../lib/measure';
import { syntheticCard } from '../lib/synthetic-card';

const CARD_ID = 'bench/card-200k';
const TOKEN = 'hf_fixtureToken0001';
const href = (id: string) => `#/catalogue/model/${encodeURIComponent(id)}`;

// In the page: when the hub.readme answer has been read (its arrival), as the app's own fetch sees it.
const INIT = () => {
  const w = window as unknown as { __readmeAt?: number };
  const orig = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const res = await orig(input, init);
    if (String(input instanceof Request ? input.url : input).includes('hub.readme'))
      void res
        .clone()
        .arrayBuffer()
        .then(() => (w.__readmeAt = performance.now()));
    return res;
  };
};

async function openCard(page: Page, to: string) {
  return page.evaluate(async (h) => {
    const w = window as unknown as { __readmeAt?: number };
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    location.hash = '#/catalogue';
    await frame();
    await frame();
    w.__readmeAt = undefined;
    const longTasks: { start: number; duration: number }[] = [];
    const po = new PerformanceObserver((l) =>
      l.getEntries().forEach((e) => longTasks.push({ start: e.startTime, duration: e.duration })),
    );
    po.observe({ type: 'longtask' });
    let inserted = 0;
    let painted = 0;
    let done = 0;
    const finished = new Promise<void>((resolve) => {
      const mo = new MutationObserver(() => {
        if (!inserted && document.querySelector('[data-testid="card-body"] > div')) {
          inserted = performance.now();
          // The frame after the first piece went in is when it is painted.
          requestAnimationFrame((t) => (painted = Math.max(t, inserted)));
        }
        if (inserted && document.querySelector('[data-testid="repo-card"][aria-busy="false"]')) {
          done = performance.now();
          mo.disconnect();
          resolve();
        }
      });
      mo.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
    });
    location.hash = h;
    await finished;
    await frame();
    await frame();
    po.disconnect();
    // The card component's own start (a User Timing mark): the answer has arrived and React has handed it over.
    const arrival = performance.getEntriesByName('hub-card:start').at(-1)?.startTime ?? w.__readmeAt ?? inserted;

    performance.clearMarks();
    // Only long tasks from the answer on: the card's own rendering, not the page's navigation before it.
    const during = longTasks.filter((t) => t.start + t.duration > arrival).length;
    return { first: painted - arrival, full: done - arrival, longTasks: during };
  }, to);
}

// In the page: how many calls to main are on their way, and when the last long task ended, so a page is opened
// only once the previous one has settled (a person does not open the next page within two frames, while its snippets
// are still being generated and its editor loaded).
const SETTLE = () => {
  const w = window as unknown as { __inflight: number; __lastLong: number };
  const orig = window.fetch.bind(window);
  w.__inflight = 0;
  w.__lastLong = 0;
  window.fetch = async (input, init) => {
    w.__inflight++;
    try {
      return await orig(input, init);
    } finally {
      w.__inflight--;
    }
  };
  new PerformanceObserver((l) =>
    l.getEntries().forEach((e) => (w.__lastLong = Math.max(w.__lastLong, e.startTime + e.duration))),
  ).observe({ type: 'longtask' });
};

async function openPage(page: Page, to: string, selectors: string[]) {
  return page.evaluate(
    async ({ h, sels }) => {
      const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
      location.hash = '#/catalogue';
      await frame();
      await frame();
      const w = window as unknown as { __inflight?: number; __lastLong?: number };
      const settled = () => !w.__inflight && performance.now() - (w.__lastLong ?? 0) > 300;
      for (let i = 0; i < 300 && !settled(); i++) await frame();
      const t0 = performance.now();
      location.hash = h;
      await new Promise<void>((resolve) => {
        const check = () => (sels.every((s) => document.querySelector(s)) ? resolve() : requestAnimationFrame(check));
        check();
      });
      // The frame whose animation callbacks found the content paints it: the page is painted when that frame's
      // rendering has run (a message posted now is handled right after it). Waiting for the next frame instead
      // also counted whatever either page did after its paint (revalidations, snippet answers, the editor).
      await new Promise<void>((painted) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => painted();
        ch.port2.postMessage(null);
      });
      const took = performance.now() - t0;
      // The page's own late work (snippets generated, the editor's code loaded and evaluated once per window) is
      // done before the next page opens: otherwise Monaco's first evaluation, a long task of 0.2–0.5 s that no
      // fetch tracks, lands in whichever open comes next.
      const loaded = '[data-testid="snippet-workbench"] :is(.monaco-editor, .state-empty, .state-error)';
      for (let i = 0; i < 600 && !document.querySelector(loaded); i++) await frame();
      return took;
    },
    { h: to, sels: selectors },
  );
}

/**
 * Rests the focus on a link to `to` (a keyboard user tabbing onto it), as a person does before opening it, until what
 * the link intent started (the page's code, and a Hub page's answers from main) has arrived; the link then goes.
 */
async function restOn(page: Page, to: string) {
  await page.evaluate(async (h) => {
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const w = window as unknown as { __inflight?: number };
    const a = Object.assign(document.createElement('a'), { href: h, textContent: 'the model' });
    document.body.append(a);
    a.focus();
    for (let i = 0; i < 12; i++) await frame();
    for (let i = 0; i < 300 && w.__inflight; i++) await frame();
    a.remove();
  }, to);
}

/** Model page: a 200 KB card rendered without blocking, and a Hub model page from the cache against an embedded one. */
export async function modelPage(ctx: BenchContext): Promise<Figure[]> {
  const opts = modelPageHub();
  opts.models!.push({
    id: CARD_ID,
    pipeline_tag: 'text-generation',
    tags: [],
    files: { 'README.md': syntheticCard(CARD_ID, 200_000) },
  });
  const hub = await startHubFixture(opts);
  const browser = await launchChromium();
  const app = await startBenchApp(browser, { HF_ENDPOINT: hub.url, HF_TOKEN: TOKEN });
  const origin = new URL(app.url).origin;
  const first: number[] = [];
  const full: number[] = [];
  const longTasks: number[] = [];
  const embedded: number[] = [];
  const cached: number[] = [];
  const firstEmbedded: number[] = [];
  const firstCached: number[] = [];
  const windowFirst: number[] = [];
  const restedEmbedded: number[] = [];
  const restedCached: number[] = [];
  try {
    await app.client.call('settings.update', { hubAccess: 'online' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(INIT);
    await page.goto(app.url);
    await page.goto(`${origin}/${href(CARD_ID)}`);
    await page.getByTestId('card-body').waitFor();
    for (let r = 0; r < ctx.runs(7, 3); r++) {
      const m = await openCard(page, href(CARD_ID));
      first.push(m.first);
      full.push(m.full);
      longTasks.push(m.longTasks);
    }
    await page.close();

    // Seen once online (model, card, lineage), then opened with live access off: everything from the cache.
    await app.client.call('hub.model', { id: GATED_ID });
    await app.client.call('hub.readme', { kind: 'model', id: GATED_ID });
    for (const relation of ['quantized', 'finetune', 'adapter', 'merge'] as const)
      await app.client.call('hub.derived', { id: GATED_ID, relation });
    await app.client.call('settings.update', { hubAccess: 'offline' });
    const embeddedId = buildCatalogue('bench').models.find((m) => m.pipeline_tag === 'text-generation')!.id;
    const offline = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await offline.addInitScript(SETTLE);
    await offline.goto(app.url);
    await offline.goto(`${origin}/#/catalogue`);
    await offline.getByTestId('task-groups').waitFor();
    const embeddedSel = [
      '[data-testid="model-task"]',
      '[data-testid="use-this-model"]',
      '[data-testid="snippet-workbench"]',
    ];
    const cachedSel = [...embeddedSel, '[data-testid="model-facts"]', '[data-testid="card-body"] > div'];
    await openPage(offline, href(embeddedId), embeddedSel);
    await openPage(offline, href(GATED_ID), cachedSel);
    for (let r = 0; r < ctx.runs(7, 3); r++) {
      embedded.push(await openPage(offline, href(embeddedId), embeddedSel));
      cached.push(await openPage(offline, href(GATED_ID), cachedSel));
    }
    await offline.close();

    // The first open of each in a window (no answer kept by the page yet: the Hub page comes from main's disk
    // cache), after another embedded page has loaded the pages' code.
    const models = buildCatalogue('bench').models.filter((m) => m.pipeline_tag === 'text-generation');
    // A new window on the catalogue, tracking the calls on their way (SETTLE).
    const freshWindow = async () => {
      const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await fresh.addInitScript(SETTLE);
      await fresh.goto(app.url);
      await fresh.goto(`${origin}/#/catalogue`);
      await fresh.getByTestId('task-groups').waitFor();
      return fresh;
    };
    for (let r = 0; r < ctx.runs(7, 3); r++) {
      const fresh = await freshWindow();
      windowFirst.push(await openPage(fresh, href(models[1].id), embeddedSel));
      firstEmbedded.push(await openPage(fresh, href(models[2 + (r % (models.length - 2))].id), embeddedSel));
      firstCached.push(await openPage(fresh, href(GATED_ID), cachedSel));
      await fresh.close();
    }

    // The same first opens, each after resting on a link to the page: the Hub page's answers are in the window, so
    // what is left is rendering the page for the first time in it (a floor for the figure above).
    for (let r = 0; r < ctx.runs(7, 3); r++) {
      const fresh = await freshWindow();
      await openPage(fresh, href(models[1].id), embeddedSel);
      const embeddedHref = href(models[2 + (r % (models.length - 2))].id);
      await restOn(fresh, embeddedHref);
      restedEmbedded.push(await openPage(fresh, embeddedHref, embeddedSel));
      await restOn(fresh, href(GATED_ID));
      restedCached.push(await openPage(fresh, href(GATED_ID), cachedSel));
      await fresh.close();
    }
  } finally {
    await app.stop();
    await browser.close();
    await hub.stop();
  }
  return [
    figure('model card 200 KB: answer → first part painted', 'ms', first, { target: '≤ 33.4 ms (2 frames)' }),
    figure('model card 200 KB: answer → fully rendered', 'ms', full, {
      note: 'pieces of ~2 KB, ≤ 10 ms of work a frame',
    }),
    figure('model card 200 KB: long tasks (>50 ms)', 'count', longTasks, { target: '0' }),
    figure('model page from cache (card, facts) → painted', 'ms', cached, {
      baseline: embedded,
      target: 'ratio ≤ 1.2 (baseline: embedded model page); opened again: shown from the page, then revalidated',
    }),
    figure('model page from cache, first open in the window → painted', 'ms', firstCached, {
      baseline: firstEmbedded,
      note: "from main's disk cache; baseline: an embedded model page opened for the first time",
    }),
    figure('model page from cache, first open in the window, link rested on → painted', 'ms', restedCached, {
      baseline: restedEmbedded,
      note: 'its answers already in the window (the floor of the figure above); baseline: the same for an embedded page',
    }),
    figure("a window's first model page (its code loaded on the way) → painted", 'ms', windowFirst, {
      note: 'an embedded model; the catalogue stays on screen until the page and its workbench code are in',
    }),
  ];
}
