import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConnectProxy, type ConnectProxy } from '../fixtures/connect-proxy';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { makeTestCa, type TestCa } from '../fixtures/tls-ca';
import { startTlsFront, type TlsFront } from '../fixtures/tls-front';
import { tempDir } from '../helpers/app';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

/**
 * A company network in the web mode: the Hub (hub.test) is reached only through a CONNECT proxy set in the
 * environment, behind TLS signed by a private CA. Settings → Network says which proxy is in use and where it came
 * from; Test connection fails on the untrusted certificate until the CA file is given; a SOCKS proxy is refused in
 * words; a proxy that asks for credentials gets them in a manual proxy whose password never reaches the page.
 */
describe('Settings → Network behind a proxy and a private CA', () => {
  const dir = tempDir('hubdesk-e2e-network-');
  let ca: TestCa;
  let hub: HubFixture;
  let front: TlsFront;
  let proxy: ConnectProxy;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ca = makeTestCa(dir.path);
    hub = await startHubFixture();
    front = await startTlsFront({ target: hub.url, ...ca.leaf({ names: ['hub.test'] }) });
    proxy = await startConnectProxy({ hosts: { 'hub.test:443': `127.0.0.1:${front.port}` } });
    ({ app, browser, page, errors } = await openApp({
      env: { HF_ENDPOINT: 'https://hub.test', HTTPS_PROXY: proxy.url },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await proxy?.stop();
    await front?.stop();
    await hub?.stop();
    dir.remove();
  });

  const card = () => page.getByTestId('network-settings');
  const result = () => card().getByTestId('network-test-result');
  /** Test connection, from the keyboard; resolves with the result's text once the button is back. */
  async function testHub(): Promise<string> {
    const button = card().getByRole('button', { name: 'Test connection' });
    await button.focus();
    await page.keyboard.press('Enter');
    await card().getByRole('button', { name: 'Test connection' }).and(page.locator(':enabled')).waitFor();
    // Disabled while it ran, the button has the keyboard's focus back.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Test connection');
    return (await result().textContent()) ?? '';
  }
  /** Both widths (and, asked, both themes), the card's top and its end in view. */
  async function shots(name: string, themes: readonly ('light' | 'dark')[] = ['light']) {
    for (const theme of themes) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      for (const width of [1400, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await card().evaluate((e) => e.scrollIntoView({ block: 'start' }));
        await screenshot(page, `${name}-${width}${theme === 'dark' ? '-dark' : ''}-top`);
        await card().evaluate((e) => e.scrollIntoView({ block: 'end' }));
        await screenshot(page, `${name}-${width}${theme === 'dark' ? '-dark' : ''}`);
      }
    }
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it('shows the environment’s proxy, and the untrusted certificate in words', async () => {
    await page.getByTestId('nav-settings').click();
    const route = card().getByTestId('network-route');
    await route.waitFor();
    expect(await route.textContent()).toBe(`Through ${proxy.url} — from the environment (HTTPS_PROXY)`);
    const status = card().getByTestId('network-proxy-status');
    expect(await status.textContent()).toContain(`HTTPS_PROXY = ${proxy.url}`);
    expect(await status.textContent()).toContain('the web mode uses the environment');
    expect(await card().getByTestId('network-trust').textContent()).toContain('Extra certificates file: none');

    const text = await testHub();
    expect(text).toMatch(/^Failed · \d+ ms/);
    expect(text).toContain(`https://hub.test/ — through ${proxy.url} (environment)`);
    expect(text).toMatch(/The certificate for hub\.test is signed by an authority this machine does not trust/);
    expect(proxy.log.some((e) => e.method === 'CONNECT' && e.target === 'hub.test:443')).toBe(true);
    await card().scrollIntoViewIfNeeded();
    await shots('network-untrusted');
  });

  it('trusts the CA once its file is given: Test connection goes through the proxy to the Hub', async () => {
    const caFile = card().getByLabel('Extra certificates (PEM file)');
    await caFile.focus();
    await page.keyboard.type(ca.caFile);
    await page.keyboard.press('Enter');
    await card().getByTestId('network-trust').getByText(`${ca.caFile} — 1 certificate`).waitFor();
    expect(await card().getByTestId('network-trust').textContent()).toMatch(
      /System store: (\d+ certificates|not readable by Node)/,
    );

    const before = proxy.log.length;
    const text = await testHub();
    expect(text).toMatch(/^OK · HTTP 200 · \d+ ms/);
    expect(text).toContain(`through ${proxy.url} (environment)`);
    expect(text).toContain('Certificate for hub.test, issued by HubDesk test CA');
    expect(proxy.log.slice(before)).toContainEqual({
      method: 'CONNECT',
      target: 'hub.test:443',
      status: 200,
      authorized: true,
    });
    await shots('network-ok');
    expect(await checkBothThemes(page, 'Settings → Network, test OK')).toEqual([]);
  });

  it('a CA file that is not PEM is refused in main’s words', async () => {
    const caFile = card().getByLabel('Extra certificates (PEM file)');
    await caFile.fill(`${dir.path}/index.txt`);
    await caFile.press('Enter');
    const alert = card().locator('#setting-caFile-error');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/holds no PEM certificate/);
    // The file kept is still the CA's; typed back, the refusal goes.
    await caFile.fill(ca.caFile);
    await alert.waitFor({ state: 'detached' });
    expect(await card().getByTestId('network-trust').textContent()).toContain(`${ca.caFile} — 1 certificate`);
  });

  it('a SOCKS proxy is refused; a proxy asking for credentials gets them, the password never shown', async () => {
    const manual = card().getByLabel('Manual proxy');
    await manual.focus();
    await page.keyboard.type('socks5://x:1');
    await page.keyboard.press('Enter');
    const refused = card().getByTestId('manual-proxy').getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(
      /names a SOCKS proxy \(socks5:\/\/x:1\): HubDesk speaks to HTTP\(S\) proxies only/,
    );
    expect(await card().getByTestId('manual-proxy-state').textContent()).toBe('not set');

    proxy.set({ auth: 'alice:s3cr3t' });
    const asked = await testHub();
    expect(asked).toMatch(/^Failed/);
    expect(asked).toContain(`The proxy at ${proxy.url} asks for a user name and password (407)`);
    await shots('network-407');

    await manual.fill(`http://alice:s3cr3t@127.0.0.1:${proxy.port}`);
    await card().getByTestId('manual-proxy').getByRole('button', { name: 'Save' }).click();
    const shown = `http://alice:•••@127.0.0.1:${proxy.port}`;
    await card().getByTestId('network-route').getByText(`Through ${shown} — from Settings`).waitFor();
    expect(await manual.inputValue()).toBe('');
    expect(await card().getByTestId('manual-proxy-state').textContent()).toContain(shown);

    const before = proxy.log.length;
    const text = await testHub();
    expect(text).toMatch(/^OK · HTTP 200/);
    expect(text).toContain(`through ${shown} (settings)`);
    expect(proxy.log.slice(before)).toContainEqual({
      method: 'CONNECT',
      target: 'hub.test:443',
      status: 200,
      authorized: true,
    });
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('s3cr3t');
    expect(await page.content()).not.toContain('s3cr3t');
    await card().scrollIntoViewIfNeeded();
    await shots('network-manual', ['light', 'dark']);
    expect(await checkBothThemes(page, 'Settings → Network, manual proxy')).toEqual([]);

    // Cleared, the environment's proxy is in use again.
    await card().getByTestId('manual-proxy').getByRole('button', { name: 'Clear' }).click();
    await card().getByTestId('network-route').getByText('from the environment (HTTPS_PROXY)').waitFor();
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
  });
});
