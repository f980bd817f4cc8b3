import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { tempDir } from '../helpers/app';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

/** The machine is shared and busy: give the page time rather than fail on a slow frame. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

const REPO = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
const PULLED = `hf.co/${REPO}:Q8_0`;

/** The journey: a GGUF repo's page → fit on this (overridden) hardware → Local apps → pull inline → chat with it. */
describe('GGUF fit, pull and chat in Chromium (Hub and Ollama fixtures)', () => {
  let hub: HubFixture;
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const data = tempDir('hubdesk-e2e-fit-');

  beforeAll(async () => {
    hub = await startHubFixture();
    ollama = await startOllamaFixture({
      models: [],
      registry: { [PULLED]: { layers: [1_321_083_200, 1481, 7711] } },
      progressIntervalMs: 60,
      progressSteps: 12,
    });
    ollama.chunkIntervalMs = 10;
    ollama.chatScript = (req) => ({ content: tokens(`Hello from ${req.model}! A local GGUF reply.`) });
    // The user chose the Hub on the first-run screen (hub-search's part): start online.
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'settings.json'), JSON.stringify({ version: 1, values: { hubAccess: 'online' } }));
    ({ app, browser, page, errors } = await openApp({
      dataDir: data.path,
      env: { HF_ENDPOINT: hub.url, OLLAMA_HOST: ollama.url },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
    await hub?.stop();
    data.remove();
  });

  it('Settings: the hardware override (2 GB GPU, 4 GB RAM) replaces what was detected', async () => {
    await page.goto(`${app.origin}/#/settings`);
    const card = page.getByTestId('hardware-settings');
    await poll(() => card.getByTestId('hardware-detected').textContent()).toMatch(/GB RAM/);
    await card.getByLabel('GPU memory (GiB)').fill('2');
    await card.getByLabel('RAM (GiB)').fill('4');
    await card.getByLabel('RAM (GiB)').press('Enter');
    await card.getByText('set by you').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'fit-settings-hardware');
  });

  it('the model page shows a verdict per quant, explains it on focus and hover, and picks the default', async () => {
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent(REPO)}`);
    const quants = page.getByTestId('model-quants');
    await quants.getByTestId('fit-badge').first().waitFor();
    await expect
      .poll(() => quants.getByTestId('fit-hardware').textContent())
      .toMatch(/set in Settings.*4\.3 GB RAM.*2\.1 GB VRAM/);
    const verdicts = async () =>
      Object.fromEntries(
        await quants
          .getByTestId('quant-row')
          .evaluateAll((rows) =>
            rows.map((r) => [
              r.getAttribute('data-quant'),
              r.querySelector('[data-verdict]')?.getAttribute('data-verdict'),
            ]),
          ),
      );
    // 4,096 tokens of Llama 3.2 1B: 128 MiB of KV cache (from the GGUF header the fixture serves) + 0.5 GB runtime.
    expect(await verdicts()).toEqual({
      Q2_K: 'vram',
      Q4_K_M: 'vram',
      'UD-Q4_K_XL': 'vram',
      Q8_0: 'vram',
      F16: 'partial',
    });
    await expect
      .poll(() => quants.getByTestId('default-quant').locator('xpath=ancestor::tr').getAttribute('data-quant'))
      .toBe('Q8_0');
    expect(await quants.getByRole('radio', { name: 'Q8_0' }).isChecked()).toBe(true);
    expect(await quants.getByTestId('fit-estimate-note').count()).toBe(0);
    // The verdict's line and the default's reason are in the table, not only in the tip (decimal GB, as the Hub).
    expect(await quants.getByTestId('default-why').textContent()).toBe('The largest that fits in VRAM');
    expect(await quants.locator('[data-quant="F16"] [data-testid="fit-summary"]').textContent()).toBe(
      'needs 3.2 GB: 2.1 GB in VRAM, the rest in RAM',
    );

    // Keyboard: the badge is a tab stop and its explanation is its description.
    const badge = quants.locator('[data-quant="F16"] [data-testid="fit-badge"]');
    await badge.focus();
    const tip = page.locator(`#${await badge.getAttribute('aria-describedby')}`.replace(/:/g, '\\:'));
    await poll(() => tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toMatch(
      /Partial offload: needs about 3\.2 GB = file 2\.5 GB \+ KV cache 134 MB for 4,096 tokens/,
    );
    expect(await tip.textContent()).toMatch(/16 layers × 8 KV heads/);
    await screenshot(page, 'fit-badges-focus');
    await badge.blur();
    await poll(() => tip.isVisible()).toBe(false);
    await quants.locator('[data-quant="Q2_K"] [data-testid="fit-badge"]').hover();
    await poll(() => quants.locator('[data-quant="Q2_K"] [role="tooltip"]').isVisible()).toBe(true);

    // The longest context: 4 GiB of KV cache; nothing fits fully, so the default falls back to Q4_K_M.
    await quants.getByTestId('fit-context').selectOption('131072');
    await poll(verdicts).toEqual({
      Q2_K: 'partial',
      Q4_K_M: 'too-large',
      'UD-Q4_K_XL': 'too-large',
      Q8_0: 'too-large',
      F16: 'too-large',
    });
    await expect
      .poll(() => quants.getByTestId('default-quant').locator('xpath=ancestor::tr').getAttribute('data-quant'))
      .toBe('Q4_K_M');
    await quants.getByTestId('fit-context').selectOption('4096');
    await poll(() => quants.getByRole('radio', { name: 'Q8_0' }).isChecked()).toBe(true);
    // The header was read with range requests through main.
    const reads = hub.requests.filter((r) => r.path.startsWith(`/${REPO}/resolve/main/`) && r.path.endsWith('.gguf'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => /^bytes=/.test(String(r.headers.range)))).toBe(true);
  });

  it('"Use this model" opens on Local apps with the default quant; the Inference tab says no provider serves it', async () => {
    await poll(() => page.getByTestId('kind-local-app').getAttribute('aria-selected')).toBe('true');
    await poll(() => page.locator('.sw-pane').textContent()).toMatch(new RegExp(`${REPO}[:/-]?.*Q8_0`));
    await page.getByTestId('kind-inference').click();
    await poll(() => page.getByTestId('unserved-note').textContent()).toMatch(/No inference provider serves/);
    // No token in this app: "Insert my token" says so, with the way to Settings, instead of asking to confirm.
    await page.getByRole('button', { name: 'Insert my token' }).click();
    await page.getByTestId('no-token').getByText('No token set').waitFor();
    expect(
      await page.getByTestId('no-token').getByRole('link', { name: 'Set one in Settings' }).getAttribute('href'),
    ).toBe('#/settings');
    expect(await page.getByTestId('confirm-token').count()).toBe(0);
    await screenshot(page, 'fit-inference-unserved');
    await page.getByTestId('no-token').getByRole('button', { name: 'OK' }).click();
  });

  it('pulls inline with progress and cancel, then "Chat now" opens a chat with the model and a reply streams', async () => {
    await page.getByTestId('run-ollama').click();
    const inline = page.getByTestId('pull-inline');
    await inline.getByRole('progressbar').waitFor();
    await page.getByTestId('pull-cancel').click();
    await poll(() => inline.getByTestId('pull-state').textContent()).toMatch(/Cancelled/);
    await page.getByTestId('run-ollama').click();
    await poll(() => inline.getByTestId('pull-state').textContent()).toMatch(/pulling|MB|%/);
    await screenshot(page, 'fit-pull-progress');
    await page.getByTestId('chat-now').waitFor({ timeout: 30_000 });
    const pulls = ollama.requestsTo('/api/pull');
    // ollama-js sends the name as `name`; the cancelled pull closed its connection early.
    expect(
      pulls.map((r) => {
        const b = r.body as { model?: string; name?: string };
        return b.model ?? b.name;
      }),
    ).toEqual([PULLED, PULLED]);
    expect(pulls[0].closedEarly).toBe(true);
    await screenshot(page, 'fit-pull-done');
    await page.getByTestId('chat-now').click();
    await page.getByTestId('composer').waitFor();
    // The new conversation names the pulled model (its header: "Ollama · <model>").
    await page.getByText(`Ollama · ${PULLED}`).waitFor();
    await page.getByTestId('composer').fill('Hi');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]'));
    await reply.waitFor();
    expect(await reply.textContent()).toContain(`Hello from ${PULLED}! A local GGUF reply.`);
    await screenshot(page, 'fit-chat');
    expect(errors).toEqual([]);
  });

  it('on a CPU-only machine the default is a Q4_K_M-class quant with why; the tips stay in view at 1024×700', async () => {
    await page.goto(`${app.origin}/#/settings`);
    const card = page.getByTestId('hardware-settings');
    await card.getByLabel('GPU memory (GiB)').fill('0');
    await card.getByLabel('RAM (GiB)').fill('24');
    await card.getByLabel('RAM (GiB)').press('Enter');
    await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent(REPO)}`);
    const quants = page.getByTestId('model-quants');
    await poll(() => quants.getByTestId('fit-hardware').textContent()).toMatch(/25\.8 GB RAM, no GPU/);
    // F16 fits in RAM too, but a CPU answers several times faster from a 4-bit file.
    await poll(() => quants.getByTestId('default-quant').locator('xpath=ancestor::tr').getAttribute('data-quant')).toBe(
      'UD-Q4_K_XL',
    );
    expect(await quants.getByTestId('default-why').textContent()).toMatch(
      /^UD-Q4_K_XL: about 3× faster than F16 on a CPU/,
    );
    expect(await quants.locator('[data-quant="F16"] [data-verdict]').getAttribute('data-verdict')).toBe('ram');
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await quants.scrollIntoViewIfNeeded();
      await screenshot(page, 'fit-cpu-default-1400');
      await page.setViewportSize({ width: 1024, height: 700 });
      await quants.scrollIntoViewIfNeeded();
      await screenshot(page, 'fit-cpu-default-1024');
      // The first and the last row's tip, each with its row at the bottom of the page: all of it is visible.
      for (const label of ['Q2_K', 'F16']) {
        const badge = quants.locator(`[data-quant="${label}"] [data-testid="fit-badge"]`);
        await badge.evaluate((el) => el.scrollIntoView({ block: 'end' }));
        await badge.focus();
        const tip = quants.locator(`[data-quant="${label}"] [role="tooltip"]`);
        await poll(() => tip.isVisible()).toBe(true);
        const box = (await tip.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(700);
        expect(await badge.getAttribute('data-tip')).toBe('above');
        await screenshot(page, `fit-tip-${label}-1024`);
      }
      await page.keyboard.press('Shift+Tab');
      await quants.scrollIntoViewIfNeeded();
      expect(await checkBothThemes(page, 'GGUF quantizations, CPU-only default, 1024×700')).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'fit-cpu-default-1024-dark');
      await page.emulateMedia({ colorScheme: 'light' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('"Compare quants": Q4-class default against the pulled Q8_0, pulled only on confirm (error, cancel, then done)', async () => {
    const QUANT = `hf.co/${REPO}:UD-Q4_K_XL`;
    const pullsBefore = ollama.requestsTo('/api/pull').length;
    try {
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.goto(`${app.origin}/#/catalogue/model/${encodeURIComponent(REPO)}`);
      const open = page.getByTestId('compare-quants');
      await poll(() => page.getByTestId('default-quant').locator('xpath=ancestor::tr').getAttribute('data-quant')).toBe(
        'UD-Q4_K_XL',
      );
      // Keyboard only: the button, Enter; the focus lands on the first ticked quant.
      await open.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Compare quants' });
      await dialog.waitFor();
      const ticked = () =>
        dialog
          .getByTestId('cq-row')
          .evaluateAll((rows) =>
            rows.filter((r) => r.querySelector<HTMLInputElement>('input')!.checked).map((r) => r.dataset.quant),
          );
      expect(await ticked()).toEqual(['Q8_0', 'UD-Q4_K_XL']);
      expect(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.quant)).toBe('Q8_0');
      await poll(() => dialog.locator('[data-quant="Q8_0"]').getAttribute('data-state')).toBe('here');
      expect(await dialog.locator('[data-quant="UD-Q4_K_XL"]').textContent()).toMatch(/830 MB.*Fits in RAM \(CPU\)/);
      const confirm = dialog.getByTestId('cq-confirm');
      expect(await confirm.textContent()).toBe('Pull 1 model (830 MB) and compare');
      expect(ollama.requestsTo('/api/pull').length).toBe(pullsBefore);
      await screenshot(page, 'compare-quants-1024x700');
      expect(await checkBothThemes(page, 'Compare quants dialog, 1024×700')).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'compare-quants-1024x700-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1400, height: 900 });
      await screenshot(page, 'compare-quants-1400');
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'compare-quants-1400-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      // Escape closes, and the focus returns to the button; nothing was pulled.
      await page.keyboard.press('Escape');
      await poll(() => dialog.count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('compare-quants');
      expect(ollama.requestsTo('/api/pull').length).toBe(pullsBefore);

      // The registry lacks the quant: Ollama's own words in its row, and the choice is offered again.
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await confirm.focus();
      await page.keyboard.press('Enter');
      await poll(() => dialog.getByTestId('cq-failed').textContent()).toMatch(/file does not exist/);
      await poll(() => confirm.isEnabled()).toBe(true);
      await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('cq-confirm');
      // Now it can be fetched: the progress shows in the dialog, and Cancel stops it.
      ollama.registry[QUANT] = { layers: [830_000_000, 1481, 7711] };
      await page.keyboard.press('Enter');
      await dialog.getByTestId('cq-progress').waitFor();
      await screenshot(page, 'compare-quants-pulling');
      // The confirm button went disabled under the focus: Cancel has it, and Enter cancels.
      await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('cq-cancel');
      await page.keyboard.press('Enter');
      await poll(() => dialog.locator('[data-quant="UD-Q4_K_XL"]').textContent()).toMatch(/cancelled/);
      // Again, to the end: the set goes to the Compare page.
      await poll(() => confirm.textContent()).toBe('Pull 1 model (830 MB) and compare');
      await confirm.click();
      await expect.poll(() => page.evaluate(() => location.hash), { timeout: 30_000 }).toBe('#/compare');
      const names = ollama
        .requestsTo('/api/pull')
        .slice(pullsBefore)
        .map((r) => (r.body as { model?: string; name?: string }).model ?? (r.body as { name?: string }).name);
      expect(names).toEqual([QUANT, QUANT, QUANT]);
      // The Compare page took the set: its note names the quants and the repo.
      await page.getByTestId('compare-page').getByText(`UD-Q4_K_XL against Q8_0 of ${REPO}`).waitFor();
      await screenshot(page, 'compare-quants-handed');
      expect(errors).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('a library page shows a sample snippet from the library generator', async () => {
    await page.goto(`${app.origin}/#/catalogue/library/timm`);
    const sample = page.getByTestId('library-sample');
    await poll(() => sample.getByTestId('library-sample-code').textContent()).toMatch(
      /import timm\s+model = timm\.create_model\("hf_hub:[\w.-]+\/[\w.-]+", pretrained=True\)/,
    );
    await screenshot(page, 'fit-library-sample');
  });
});
