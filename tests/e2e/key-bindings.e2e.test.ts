import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FixtureServer, json } from '../fixtures/http-fixture';
import { openApp, screenshot, type WebApp } from './harness';

const HF_TOKEN = 'hf_e2eBindingToken4321';

describe('Settings: where each key goes (web mode)', () => {
  let spy: FixtureServer;
  let app: WebApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    spy = await new FixtureServer(({ res }) => json(res, 200, [])).start();
    ({ app, browser, page } = await openApp({ env: { HF_TOKEN, OLLAMA_HOST: 'http://127.0.0.1:9' } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await spy?.stop();
  });

  it('shows which key goes where; a host typed in the page gets none and cannot be approved from it', async () => {
    await page.getByTestId('nav-settings').click();
    const card = page.getByTestId('key-bindings');
    await card.getByText('Where your keys go').waitFor();
    const hub = card.getByTestId('binding-hubEndpoint');
    await hub.getByText('https://huggingface.co').waitFor();
    await hub.getByText('gets the Hugging Face token').waitFor();
    await card.getByTestId('binding-falRestBase').getByText('would get the fal key (not set)').waitFor();

    const field = page.locator('#setting-hubEndpoint');
    await field.fill(spy.url);
    await field.press('Enter');
    await hub.getByText('no Hugging Face token').waitFor();
    await hub.getByText('start HubDesk with HF_ENDPOINT set to send it here').waitFor();
    expect(await card.getByRole('button', { name: /Approve/ }).count()).toBe(0);

    // A refused address is an error the user can act on, and changes nothing.
    await field.fill('http://169.254.169.254');
    await field.press('Enter');
    await page.getByText(/169\.254\.169\.254 is refused/).waitFor();
    await screenshot(page, 'settings-refused-endpoint');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-key-bindings');

    // Reset returns the endpoint to the Hub, which gets the token again.
    await page.locator('#setting-hubEndpoint ~ button', { hasText: 'Reset' }).click();
    await hub.getByText('gets the Hugging Face token').waitFor();
    expect(spy.requests.every((r) => !JSON.stringify(r.headers).includes(HF_TOKEN))).toBe(true);
    expect(await page.content()).not.toContain(HF_TOKEN);
  });
});
