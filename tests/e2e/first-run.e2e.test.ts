import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { openApp, screenshot, type WebApp } from './harness';

const storedAccess = (dataDir: string) =>
  (JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { values: { hubAccess?: string } }).values
    .hubAccess;

describe('first run (web mode, Chromium)', () => {
  let hub: HubFixture;
  const opened: { app: WebApp; browser: Browser }[] = [];
  let page: Page;
  let app: WebApp;
  let errors: string[];

  beforeAll(async () => {
    hub = await startHubFixture();
  });
  afterAll(async () => {
    for (const o of opened) {
      await o.browser.close();
      await o.app.stop();
    }
    await hub?.stop();
  });

  it('asks first, with the endpoint from HF_ENDPOINT, keyboard only; nothing reaches the Hub before the choice', async () => {
    let browser: Browser;
    ({ app, browser, page, errors } = await openApp({ firstRun: true, env: { HF_ENDPOINT: hub.url } }));
    opened.push({ app, browser });
    await page.getByTestId('first-run').waitFor();
    expect(await page.getByTestId('first-run-endpoint').textContent()).toBe(hub.url);
    await page.getByText('from HF_ENDPOINT').waitFor();
    // The app shell is not there behind it: no navigation, no catalogue asking anything.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    // The recommended choice has the focus; Tab reaches the other one.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('first-run-online');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('first-run-offline');
    await page.keyboard.press('Shift+Tab');
    await screenshot(page, 'first-run');
    // Each choice says what it sends, as its accessible description.
    const online = page.getByRole('button', { name: /Use the Hugging Face Hub \(recommended\)/ });
    expect(await online.getAttribute('aria-describedby')).toBe('first-run-online-sends');
    expect(hub.requests).toHaveLength(0);

    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(storedAccess(app.dataDir)).toBe('online');
    // Remembered: a reload goes straight to the app.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByTestId('first-run').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('"Stay offline" is remembered and changeable in Settings, where the Hub access control replaces the switch', async () => {
    const o = await openApp({ firstRun: true, env: { HF_ENDPOINT: hub.url } });
    opened.push(o);
    const before = hub.requests.length;
    await o.page.getByTestId('first-run-offline').click();
    await o.page.getByTestId('task-groups').waitFor();
    expect(storedAccess(o.app.dataDir)).toBe('offline');
    expect(hub.requests.length).toBe(before);
    expect(await o.page.getByTestId('hub-switch').count()).toBe(0);

    await o.page.goto(`${o.app.origin}/#/settings`);
    const control = o.page.getByTestId('hub-access-setting');
    await control.waitFor();
    expect(await control.getByRole('radio', { name: 'Stay offline' }).getAttribute('aria-checked')).toBe('true');
    await control.getByRole('radio', { name: 'Use the Hub' }).click();
    await expect.poll(() => storedAccess(o.app.dataDir)).toBe('online');
    await control.getByText(hub.url).waitFor();
    await screenshot(o.page, 'settings-hub-access');
    expect(o.errors).toEqual([]);
  });
});
