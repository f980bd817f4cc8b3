import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, startWebApp, type WebApp } from './harness';

/** A page whose app script never loads: what it shows is index.html as built and served, before any JS of the app. */
async function withoutAppScript(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.route(/\/assets\/index-[^/]+\.js$/, (r) => r.abort());
  await page.goto(url);
  return page;
}

const landing = (page: Page) => page.locator('#root[data-landing] .cat-groups');
/** Each filter as drawn: its width and the option it shows. */
const filters = (page: Page) =>
  page
    .locator('#root .cat-filters select')
    .evaluateAll((els) =>
      (els as HTMLSelectElement[]).map((s) => [s.getBoundingClientRect().width, s.selectedOptions[0]?.textContent]),
    );

// The catalogue landing prerendered into index.html (scripts/first-screen.ts): painted before any JS of the app runs
// where it is the first screen, hidden where it is not, and replaced by the app without a "Starting…" in between.
describe('first screen from index.html', () => {
  let app: WebApp;
  let newUser: WebApp;
  let browser: Browser;
  let landingFilters: unknown[] = [];

  beforeAll(async () => {
    [app, newUser, browser] = await Promise.all([startWebApp(), startWebApp({ firstRun: true }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), newUser?.stop()]);
  });

  it('Hub access off: the landing is painted before the app loads, findable by nothing but the eye and its links', async () => {
    const page = await withoutAppScript(browser, app.url);
    await expect.poll(() => landing(page).isVisible()).toBe(true);
    expect(await landing(page).textContent()).toContain('Text Generation');
    // Styled as the app styles it before any stylesheet loads: the groups side by side, as in the app's grid.
    const tops = await page
      .locator('#root .cat-group')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    expect(tops[1]).toBe(tops[0]);
    expect(await page.locator('#root [data-testid], #root [id]').count()).toBe(0);
    // Its filters carry only the option they show (the app's list every task and library), drawn as the app's are.
    expect(await page.locator('#root option').count()).toBe(3);
    landingFilters = await filters(page);
    expect(landingFilters).toEqual([
      [150, 'Any modality'],
      [150, 'Any task'],
      [150, 'Any library'],
    ]);
    expect(await page.locator('#root :is(input, select, button):not([disabled])').count()).toBe(0);
    await screenshot(page, 'first-screen-before-js');
    // Its links are links: a click goes to that address, which the app opens once it has loaded.
    await page.locator('#root a', { hasText: /^Text Generation$/ }).click();
    expect(await page.evaluate(() => location.hash)).toBe('#/catalogue/task/text-generation');
    await page.close();
  });

  it('a click or the focus on the landing before the app has loaded is not lost', async () => {
    // The app's script held back until the user has acted on the landing.
    const held: (() => void)[] = [];
    const hold = async (page: Page) => {
      await page.route(
        /\/assets\/index-[^/]+\.js$/,
        (r) => void new Promise<void>((go) => held.push(go)).then(() => r.continue()),
      );
      await page.goto(app.url);
      await expect.poll(() => landing(page).isVisible()).toBe(true);
      await expect.poll(() => held.length).toBe(1);
    };
    const clicked = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await hold(clicked);
    await clicked.locator('#root a', { hasText: /^Text Generation$/ }).click();
    held.shift()!();
    await clicked.getByTestId('task-view').waitFor();
    expect(await clicked.getByTestId('task-view').textContent()).toContain('Text Generation');
    await clicked.close();

    // The keyboard: the link tabbed to on the landing has the focus in the app too.
    const tabbed = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await hold(tabbed);
    for (let i = 0; i < 10; i++) {
      await tabbed.keyboard.press('Tab');
      if ((await tabbed.evaluate(() => document.activeElement?.textContent)) === 'Chat') break;
    }
    expect(await tabbed.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#/chat');
    held.shift()!();
    await tabbed.getByTestId('task-groups').waitFor();
    await expect
      .poll(() => tabbed.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null))
      .toBe('nav-chat');
    await tabbed.keyboard.press('Enter');
    await tabbed.getByTestId('new-chat').waitFor();
    await tabbed.close();
  });

  it('the app replaces it with the same screen once settings and catalogue are in, never with "Starting…"', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      new MutationObserver(() => {
        const root = document.getElementById('root');
        if (root?.querySelector('.state')) seen.push(root.textContent ?? '');
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(app.url);
    await page.getByTestId('task-groups').waitFor();
    expect(await page.locator('#root').getAttribute('data-landing')).toBeNull();
    expect(await page.locator('.cat-groups').count()).toBe(1);
    expect(await filters(page)).toEqual(landingFilters);
    expect(await page.locator('#root option').count()).toBeGreaterThan(100);
    expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).toEqual([]);
    // Working: the search box takes typing and finds a task.
    await page.locator('#catalogue-search').fill('text generation');
    await page.getByTestId('result-count').waitFor();
    await page.close();
  });

  it('its first frame is the whole landing: on a slow link nothing is painted before index.html has all arrived', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.route(/\/assets\/index-[^/]+\.js$/, (r) => r.abort());
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // ~26 KB of HTML at 60 KB/s: the parser gets it in pieces and would paint each (a sidebar, then half a list).
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: 60 * 1024,
      uploadThroughput: -1,
    });
    await page.goto(app.url, { waitUntil: 'domcontentloaded' });
    await expect.poll(() => landing(page).isVisible()).toBe(true);
    const t = await page.evaluate(
      () =>
        new Promise<{ htmlEnd: number; firstPaint: number }>((done) => {
          new PerformanceObserver((l) => {
            const fcp = l.getEntriesByName('first-contentful-paint')[0];
            const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
            if (fcp) done({ htmlEnd: nav.responseEnd, firstPaint: fcp.startTime });
          }).observe({ type: 'paint', buffered: true });
        }),
    );
    expect(t.htmlEnd).toBeGreaterThan(200);
    expect(t.firstPaint).toBeGreaterThanOrEqual(t.htmlEnd);
    await page.close();
  });

  it('the web secret is taken from the address before the app loads: a page changed first still reaches main', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => r.status() === 401 && errors.push(`401 ${r.url()}`));
    // The app's script is held until the address has changed under it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (r) => (await held, r.continue()));
    await page.goto(app.url, { waitUntil: 'commit' });
    await expect.poll(() => landing(page).isVisible()).toBe(true);
    await expect.poll(() => page.url()).not.toContain('token=');
    await page.evaluate(() => (location.hash = '#/settings'));
    release();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    // Read from main with the secret: the choice this user made.
    await page.getByRole('radio', { name: 'Stay offline', checked: true }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('hidden where it is not the first screen: another page in the address, Hub access on, the first-run choice', async () => {
    const chat = await withoutAppScript(browser, `${app.origin}/#/chat`);
    expect(await chat.locator('#root').isVisible()).toBe(false);
    await chat.close();

    writeFileSync(join(app.dataDir, 'settings.json'), JSON.stringify({ version: 1, values: { hubAccess: 'online' } }));
    const online = await withoutAppScript(browser, app.url);
    expect(await online.locator('#root').isVisible()).toBe(false);
    await online.close();

    const first = await withoutAppScript(browser, newUser.url);
    expect(await first.locator('#root').isVisible()).toBe(false);
    await first.close();

    // With the app: the first-run screen, and no catalogue landing on the way.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(newUser.url);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.locator('.cat-groups').count()).toBe(0);
    await page.close();
  });
});
