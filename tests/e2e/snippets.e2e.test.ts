import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFalFixture, type FalFixture } from '../fixtures/fal';
import { defaultHubModels, startHubFixture, type HubFixture } from '../fixtures/hub';
import { tempDir } from '../helpers/app';
import { launchBrowser, screenshot, startWebApp, watchErrors, type WebApp } from './harness';

const HF_TOKEN = 'hf_e2eSnippetToken987654';
const CHAT = 'meta-llama/Llama-3.1-8B-Instruct';
const GGUF = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
const FLUX = 'black-forest-labs/FLUX.1-dev';
const FAL_KEY = 'fal-e2e-key:secret-part-0123456789';
/** A 1×1 PNG: the image FLUX's card shows, served by the fixture Hub (the HF_ENDPOINT mirror). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('snippet workbench in Chromium (web mode)', () => {
  let hub: HubFixture;
  let fal: FalFixture;
  let app: WebApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const data = tempDir('hubdesk-e2e-snippets-');

  /** The text Monaco shows (its rendered lines; non-breaking spaces as spaces). */
  const editorText = async () =>
    (await page.locator('[data-testid="snippet-editor"] .monaco-editor .view-lines').innerText()).replace(
      /\u00a0/g,
      ' ',
    );
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const open = async (id: string) => {
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent(id)}`);
    await page.getByTestId('snippet-workbench').waitFor();
  };

  beforeAll(async () => {
    hub = await startHubFixture({
      models: [
        ...defaultHubModels(),
        {
          id: FLUX,
          pipeline_tag: 'text-to-image',
          library_name: 'diffusers',
          tags: ['diffusers', 'text-to-image'],
          inferenceProviderMapping: {
            'fal-ai': { status: 'live', providerId: 'fal-ai/flux/dev', task: 'text-to-image' },
          },
          files: { 'README.md': '# FLUX.1 dev\n\n![FLUX sample](sample.png)\n', 'sample.png': new Uint8Array(PNG) },
          siblings: [{ rfilename: 'README.md' }, { rfilename: 'sample.png' }],
        },
      ],
    });
    fal = await startFalFixture({ keys: [FAL_KEY] });
    // "Search the Hub" on, so the model page loads the live record (providers, GGUF files) from the fixture.
    mkdirSync(data.path, { recursive: true });
    writeFileSync(
      join(data.path, 'settings.json'),
      // A machine where no quant fits fully, so the default quant is Q4_K_M whatever runs the test.
      JSON.stringify({ version: 1, values: { hubAccess: 'online', hardwareOverride: { vramGiB: 0, ramGiB: 1 } } }),
    );
    // The fal address is set outside the page, so the fal key is bound to it.
    app = await startWebApp({
      env: { HF_ENDPOINT: hub.url, HF_TOKEN, FAL_KEY, HUBDESK_FAL_REST_BASE: fal.url },
      dataDir: data.path,
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    // A CSP violation (zod's eval probe, a refused image) is an error the watcher sees.
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
      ),
    );
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
    await fal?.stop();
    data.remove();
  });

  it('renders the inference snippets of a chat model in Monaco, for a provider of its mapping', async () => {
    await open(CHAT);
    const provider = page.getByTestId('opt-provider');
    await provider.locator('option', { hasText: 'together (live)' }).waitFor({ state: 'attached' });
    await expect
      .poll(() => provider.locator('option').allTextContents())
      .toEqual(['hf-inference', 'auto', 'together (live)', 'novita (staging)']);
    await provider.selectOption('together');
    await page.locator('[data-testid="snippet-editor"] .monaco-editor').waitFor();
    await expect.poll(editorText).toContain(`model="${CHAT}:together"`);
    expect(await editorText()).toContain('base_url="https://router.huggingface.co/v1"');
    await expect.poll(() => page.getByTestId('install-line').textContent()).toBe('pip install openai');
    // Monaco's tokenizer ran: Python keywords are coloured spans, not plain text.
    expect(await page.locator('.monaco-editor .view-lines span[class*="mtk"]').count()).toBeGreaterThan(5);
    await page.getByTestId('snippet-editor').scrollIntoViewIfNeeded();
    await screenshot(page, 'snippets-inference-python');
  });

  it('switches languages, clients and streaming', async () => {
    await page.getByTestId('lang-js').click();
    await page.getByTestId('client-huggingface.js').click();
    await expect.poll(editorText).toContain('new InferenceClient(process.env.HF_TOKEN)');
    await page.getByTestId('lang-sh').click();
    await expect.poll(editorText).toContain('curl https://router.huggingface.co/v1/chat/completions');
    await page.getByTestId('opt-stream').check();
    await expect.poll(editorText).toContain('"stream": true');
    await page.getByTestId('opt-stream').uncheck();
    await page.getByTestId('opt-inputs').fill('Bonjour HubDesk');
    await expect.poll(editorText).toContain('"content": "Bonjour HubDesk"');
    await page.getByTestId('opt-inputs').fill('');
    await expect.poll(editorText).toContain('What is the capital of France?');
    await page.getByTestId('lang-python').click();
    await page.getByTestId('client-requests').click();
    await expect.poll(editorText).toContain('import requests');
  });

  it('edits, copies (read back from the clipboard), resets', async () => {
    const lines = page.locator('[data-testid="snippet-editor"] .monaco-editor .view-lines');
    await lines.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n# my local edit');
    await page.getByText('edited', { exact: true }).waitFor();
    await expect.poll(editorText).toContain('# my local edit');
    // The edit survives going to other tabs (another language and one of its clients, another kind) and back.
    await page.getByTestId('lang-js').click();
    await page.getByTestId('client-huggingface.js').click();
    await expect.poll(editorText).toContain('new InferenceClient(process.env.HF_TOKEN)');
    await page.getByTestId('kind-library').click();
    await page.getByTestId('kind-inference').click();
    await page.getByTestId('lang-python').click();
    await expect.poll(editorText).toContain('# my local edit');
    await page.getByText('edited', { exact: true }).waitFor();
    await page.getByTestId('copy-snippet').click();
    await expect.poll(() => page.getByTestId('toast').textContent()).toBe('Snippet copied to the clipboard');
    const copied = await clipboard();
    expect(copied).toContain('import requests');
    expect(copied.trimEnd().split('\n').at(-1)?.trim()).toBe('# my local edit');
    await page.getByTestId('reset-snippet').click();
    await expect.poll(editorText).not.toContain('# my local edit');
    await page.getByTestId('copy-snippet').click();
    await expect.poll(clipboard).not.toContain('# my local edit');
    expect(await clipboard()).toContain('https://router.huggingface.co/v1/chat/completions');
    await page.getByTestId('copy-install').click();
    await expect.poll(clipboard).toBe('pip install requests');
  });

  it('"Save to project…" downloads the pane as a file named after the model and client', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-snippet').click()]);
    expect(download.suggestedFilename()).toBe('llama_3_1_8b_instruct_requests.py');
    const saved = readFileSync((await download.path())!, 'utf8');
    expect(saved).toContain('import requests');
    expect(saved).toContain(`"model": "${CHAT}:together"`);
  });

  it('"Insert my token" writes the real token only after the warning is confirmed', async () => {
    expect(await editorText()).not.toContain(HF_TOKEN);
    await page.getByRole('button', { name: 'Insert my token' }).click();
    await page.getByRole('alertdialog').getByText('writes your real Hugging Face token').waitFor();
    expect(await editorText()).not.toContain(HF_TOKEN);
    await page.getByTestId('confirm-token').click();
    await expect.poll(editorText).toContain(HF_TOKEN);
    await page.getByText('Do not commit or share them').waitFor();
    await page.getByTestId('reset-snippet').click();
    await expect.poll(editorText).not.toContain(HF_TOKEN);
  });

  it('library, local-app and local-server kinds; a kind without snippets says why', async () => {
    await page.getByTestId('kind-library').click();
    await expect.poll(editorText).toContain('from transformers import');
    await page.getByTestId('kind-local-server').click();
    await page.getByTestId('snippet-notice').getByText('Ollama pulls GGUF models').waitFor();

    await open(GGUF);
    await page.getByTestId('kind-local-app').click();
    await page.getByTestId('client-ollama').click();
    await expect.poll(editorText).toContain(`ollama run hf.co/${GGUF}:Q4_K_M`);
    await page.getByTestId('deeplink-lmstudio').waitFor();
    await page.getByTestId('kind-local-server').click();
    await expect.poll(editorText).toContain(`model="hf.co/${GGUF}:Q4_K_M"`);
    await page.getByTestId('lang-sh').click();
    await page.getByTestId('client-curl').click();
    await expect.poll(editorText).toContain('/api/chat');
    await page.getByTestId('snippet-editor').scrollIntoViewIfNeeded();
    await screenshot(page, 'snippets-local-server');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await page.getByTestId('kind-inference').click();
    await page.locator('[data-testid="snippet-editor"] .monaco-editor').waitFor();
    await expect.poll(() => page.locator('.monaco-editor').first().getAttribute('class')).toContain('vs-dark');
    await page.getByTestId('snippet-editor').scrollIntoViewIfNeeded();
    await screenshot(page, 'snippets-dark');
  });

  it('a quant picked on the model page reaches every local-app command, vLLM\'s "Use Docker" included', async () => {
    await open(GGUF);
    await page.getByTestId('model-quants').getByRole('radio', { name: 'Q8_0' }).check();
    await page.getByTestId('kind-local-app').click();
    await page.getByTestId('client-docker-model-runner').click();
    await expect.poll(editorText).toContain(`docker model run hf.co/${GGUF}:Q8_0`);
    await page.getByTestId('client-vllm').click();
    await page.getByRole('combobox', { name: 'Variant' }).selectOption({ label: 'vLLM: Use Docker' });
    await expect.poll(editorText).toContain(`docker model run hf.co/${GGUF}:Q8_0`);
  });

  it('fal-ai: "Insert a 2-minute token" asks main for a temporary token and counts down; the key stays in main', async () => {
    await open(FLUX);
    const provider = page.getByTestId('opt-provider');
    await provider.locator('option', { hasText: 'fal-ai (live)' }).waitFor({ state: 'attached' });
    await provider.selectOption('fal-ai');
    await page.getByTestId('kind-inference').click();
    await page.getByTestId('lang-python').click();
    await page.getByTestId('client-fal_client').click();
    await expect.poll(editorText).toContain('fal_client');
    await page.getByTestId('fal-token').click();
    await page
      .getByTestId('token-countdown')
      .getByText(/token expires in [12]:\d\d/)
      .waitFor();
    const issued = fal.issued.at(-1)!;
    expect(issued).toMatchObject({ apps: ['flux'], expiration: 120 });
    expect(fal.requestsTo('/tokens/').at(-1)!.headers.authorization).toBe(`Key ${FAL_KEY}`);
    await page.getByTestId('client-huggingface_hub').click();
    await expect.poll(editorText).toContain(`api_key="${issued.token}"`);
    await page.getByTestId('snippet-editor').scrollIntoViewIfNeeded();
    await screenshot(page, 'snippets-fal-token');
    expect(await page.content()).not.toContain(FAL_KEY);
    await page.getByTestId('reset-snippet').click();
    await expect.poll(editorText).not.toContain(issued.token);
  });

  it("the card's images load from the HF_ENDPOINT mirror, which the page's CSP names", async () => {
    const res = await fetch(`${app.origin}/`);
    expect(res.headers.get('content-security-policy')).toContain(` ${new URL(hub.url).origin};`);
    await open(FLUX);
    const image = page.getByRole('img', { name: 'FLUX sample' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1);
  });

  it("a snippet pane after the Tools page's JSON editor: Monaco's late contributions find their services", async () => {
    await page.getByTestId('nav-tools').click();
    await page.locator('[data-testid=mcp-editor] .monaco-editor').waitFor();
    await open(CHAT);
    await page.locator('[data-testid="snippet-editor"] .monaco-editor').waitFor();
    await page.getByTestId('nav-tools').click();
    await page.locator('[data-testid=mcp-editor] .monaco-editor').waitFor();
    expect(errors.filter((e) => !/404|Not Found/i.test(e))).toEqual([]);
  });

  it('the Transformers library page samples a real model, not "Type of model unknown"', async () => {
    await page.goto(`${app.origin}/#/catalogue/library/transformers`);
    const code = page.getByTestId('library-sample-code');
    await expect.poll(() => code.textContent()).toMatch(/from transformers import \w+/);
    expect(await code.textContent()).not.toContain('⚠️');
    await page.getByTestId('library-sample').scrollIntoViewIfNeeded();
    await screenshot(page, 'library-sample-transformers');

    // The sample's model page (embedded task data only): its Library tab writes the same real snippet.
    const link = page.getByTestId('library-sample').locator('a').first();
    const id = (await link.textContent())!;
    await link.click();
    await page.getByTestId('snippet-workbench').waitFor();
    await page.getByTestId('kind-library').click();
    await expect.poll(editorText).toContain(`model="${id}"`);
    expect(await editorText()).not.toContain('Type of model unknown');
  });

  it('an unsupported task/provider pair names the pair instead of an empty editor', async () => {
    // A model the embedded catalogue lists for depth-estimation: the inference library has no snippets for it.
    await open('depth-anything/Depth-Anything-V2-Large');
    await page.getByTestId('kind-inference').click();
    await page
      .getByTestId('snippet-notice')
      .getByText('No inference snippets for task "depth-estimation" with provider "hf-inference".')
      .waitFor();
    expect(await page.getByTestId('snippet-editor').count()).toBe(0);
    await screenshot(page, 'snippets-notice');
    // The model page may report the fixture Hub's 404 for this id; nothing else may have failed.
    expect(errors.filter((e) => !/404|Not Found/i.test(e))).toEqual([]);
  });
});
