import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { bigramGguf, START } from '../fixtures/scripted-gguf';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { tempDir } from '../helpers/app';
import { closedPort } from '../helpers/ports';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

/** The machine is shared and busy: give the page time rather than fail on a slow frame. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout });

const REPO = 'acme/Tiny-Chat-GGUF';
const FILE = 'Tiny-Chat-Q8_0.gguf';
const ID = `${REPO}/${FILE}`;
/** The GGUF with its trained context length set to `n` (a reply runs at most that many tokens). */
function withContextLength(bytes: Uint8Array, n: number): Uint8Array {
  const buf = Buffer.from(bytes);
  const key = buf.indexOf('llama.context_length');
  const type = key + 'llama.context_length'.length;
  if (key < 0 || buf.readUInt32LE(type) !== 4) throw new Error('no u32 llama.context_length in the header');
  buf.writeUInt32LE(n, type + 4);
  return new Uint8Array(buf);
}

/**
 * A GGUF llama.cpp really runs, whose greedy reply is "Hello from llama." over and over (a bigram loop): a short
 * reply under "max tokens", and one that runs until Stop without it (a 32k context: minutes of tokens, where 512
 * would end in about two seconds, too soon to be sure Stop comes first).
 */
const LOOP: [string, string][] = [
  [START, '▁Hello'],
  ['▁Hello', '▁from'],
  ['▁from', '▁llama'],
  ['▁llama', '.'],
  ['.', '▁Hello'],
];
const gguf = withContextLength(bigramGguf({ edges: LOOP, name: 'Tiny Chat' }), 32_768);
/** A second quant, served corrupted once: the checksum refusal in words, then a good download. */
const OTHER = 'Tiny-Chat-Q4_0.gguf';
const other = tinyGguf({ seed: 7, name: 'Tiny Chat' });

/**
 * No Ollama, in Chromium: a GGUF repo's page → pick the quant → "Download and run in HubDesk" → progress, Pause,
 * Resume → done → "Chat with it" → a conversation on the built-in engine → "hello" streams a real llama.cpp reply →
 * Stop keeps a longer one, marked stopped.
 */
describe('download a GGUF from its model page and chat with the built-in engine (web mode, Chromium)', () => {
  const home = tempDir('hubdesk-e2e-home-');
  const data = tempDir('hubdesk-e2e-localchat-');
  let hub: HubFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    hub = await startHubFixture({
      models: [
        {
          id: REPO,
          pipeline_tag: 'text-generation',
          library_name: 'gguf',
          tags: ['gguf', 'llama', 'conversational', 'text-generation'],
          gguf: { total: 1_000_000, architecture: 'llama', context_length: 32_768 },
          files: { [FILE]: gguf, [OTHER]: other, 'README.md': '# Tiny Chat (GGUF)\n\nA tiny model for tests.\n' },
          siblings: [
            { rfilename: 'README.md', size: 44 },
            { rfilename: FILE, size: gguf.length },
            { rfilename: OTHER, size: other.length },
          ],
        },
      ],
    });
    mkdirSync(data.path, { recursive: true });
    writeFileSync(join(data.path, 'local.json'), JSON.stringify({ threads: 1 }));
    writeFileSync(join(data.path, 'settings.json'), JSON.stringify({ version: 1, values: { hubAccess: 'online' } }));
    const cache = join(home.path, 'hf-cache');
    mkdirSync(cache, { recursive: true });
    ({ app, browser, page, errors } = await openApp({
      dataDir: data.path,
      env: {
        HOME: home.path,
        HF_HUB_CACHE: cache,
        HF_ENDPOINT: hub.url,
        OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}`,
      },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
    home.remove();
    data.remove();
  });

  /** Both widths the layout must look finished at; `axe`: a settled state, checked by axe-core in both themes. */
  async function shots(name: string, axe = false) {
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    if (axe) expect(await checkBothThemes(page, name)).toEqual([]);
  }

  /** Tabs until `testid` has the focus (a keyboard-only walk), or fails after `max` presses. */
  async function tabTo(testid: string, max = 25) {
    for (let i = 0; i < max; i++) {
      if (await page.evaluate((t) => document.activeElement?.getAttribute('data-testid') === t, testid)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${testid}`);
  }

  const inline = () => page.getByTestId('local-download-inline');
  const state = () => inline().getByTestId('local-download-state');
  const assistant = () => page.getByTestId('msg-assistant');

  it('no Ollama and no conversation: the chat page offers the built-in engine', async () => {
    await page.getByTestId('nav-chat').click();
    const offer = page.getByTestId('local-offer');
    await offer.waitFor({ timeout: 30_000 });
    await poll(() => offer.textContent()).toMatch(/Or chat with the built-in engine/);
    await poll(
      async () =>
        (await offer.getByTestId('local-offer-rec').count()) > 0 ||
        /Local models/.test((await offer.textContent()) ?? ''),
    ).toBe(true);
    await shots('local-chat-offer', true);
  });

  it('the model page: pick the quant, then Download and run (keyboard), progress, Pause, Resume, done', async () => {
    hub.cdn.stallAfter = 200_000;
    await page.evaluate((h) => (location.hash = h), `#/catalogue/model/${encodeURIComponent(REPO)}`);
    const quants = page.getByTestId('model-quants');
    await quants.getByTestId('quant-row').first().waitFor({ timeout: 30_000 });
    const radio = quants.getByRole('radio', { name: 'Q8_0' });
    await radio.focus();
    await page.keyboard.press('Space');
    await poll(() => radio.isChecked()).toBe(true);
    await inline().getByTestId('local-download').waitFor();
    expect(await inline().getByTestId('local-download').textContent()).toBe('Download and run in HubDesk');
    await tabTo('local-download');
    await page.keyboard.press('Enter');

    // Held by the CDN after 200 kB: the progress line says how far, and Pause/Cancel are offered.
    await poll(() => state().getAttribute('data-state')).toBe('downloading');
    await poll(() => state().textContent()).toMatch(/^Downloading · 200 KB of [\d.]+ KB · \d+%/);
    await inline().getByTestId('local-download-pause').waitFor();
    await shots('local-chat-download-progress');

    await tabTo('local-download-pause');
    await page.keyboard.press('Space');
    await poll(() => state().getAttribute('data-state')).toBe('paused');
    await poll(() => state().textContent()).toMatch(/^Paused\. · 200 KB of/);
    await shots('local-chat-download-paused', true);

    hub.cdn.stallAfter = undefined;
    await tabTo('local-download-resume');
    await page.keyboard.press('Enter');
    await poll(() => state().textContent(), 60_000).toBe('downloaded');
    expect(await inline().getByTestId('local-chat').getAttribute('href')).toBe(
      `#/chat/new/local/${encodeURIComponent(ID)}`,
    );
    expect(await inline().getByTestId('local-open-models').getAttribute('href')).toBe('#/models/builtin');
    await shots('local-chat-download-done', true);
  });

  it('Chat with it: a conversation on the built-in engine; "hello" streams a real llama.cpp reply', async () => {
    await inline().getByTestId('local-chat').click();
    const thread = page.getByTestId('thread');
    await thread.waitFor({ timeout: 30_000 });
    await poll(() => page.locator('.thread-engine').textContent()).toBe('Built-in engine · Tiny-Chat-Q8_0');
    // A short first reply: max tokens 12 (three times round the loop).
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByTestId('conv-settings');
    await poll(() => settings.getByRole('radio', { name: 'Built-in (llama.cpp)' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await poll(() => settings.getByTestId('local-model-select').inputValue()).toBe(ID);
    await settings.getByLabel('max tokens').fill('12');
    await settings.getByLabel('max tokens').press('Tab');
    await shots('local-chat-settings', true);

    await page.getByTestId('composer').fill('hello');
    await page.getByTestId('composer').press('Enter');
    const done = assistant().and(page.locator('[data-status="complete"]'));
    await done.waitFor({ timeout: 90_000 });
    expect((await done.locator('.msg-body').textContent())?.trim()).toBe(
      'Hello from llama. Hello from llama. Hello from llama.',
    );
    expect(errors).toEqual([]);
    await shots('local-chat-reply');
  });

  it('Stop keeps a longer reply as far as it got, marked stopped', async () => {
    // More settings may have folded away while the last reply was written: open it again if so.
    const more = page.getByRole('button', { name: 'More settings' });
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    const settings = page.getByTestId('conv-settings');
    await settings.getByLabel('max tokens').fill('100000');
    await settings.getByLabel('max tokens').press('Tab');
    await page.getByTestId('composer').fill('tell me more');
    await page.getByTestId('send').click();
    const streaming = page.getByTestId('msg-streaming');
    await streaming.waitFor({ timeout: 60_000 });
    await poll(async () => (await streaming.textContent())?.length ?? 0, 60_000).toBeGreaterThan(200);
    await shots('local-chat-streaming');
    await page.getByTestId('stop').focus();
    await page.keyboard.press('Enter');
    const stopped = assistant().and(page.locator('[data-status="stopped"]'));
    await stopped.waitFor({ timeout: 30_000 });
    const text = (await stopped.locator('.msg-body').textContent()) ?? '';
    expect(text).toMatch(/^Hello from llama\.( Hello from llama\.)+/);
    await stopped.getByTestId('msg-stopped').waitFor();
    await shots('local-chat-stopped', true);
    expect(errors).toEqual([]);
  });

  it('the engine’s process killed while a reply streams: the reply says so and keeps its text; sending again answers', async () => {
    // llama.cpp runs in a child process of the web mode's server, not in the server itself.
    const hostPid = () => {
      const ps = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(app.proc.pid)], { encoding: 'utf8' });
      const line = ps.split('\n').find((l) => l.includes('engine-host.js'));
      return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
    };
    await page.getByTestId('composer').fill('keep going');
    await page.getByTestId('send').click();
    const streaming = page.getByTestId('msg-streaming');
    await streaming.waitFor({ timeout: 60_000 });
    await poll(async () => (await streaming.textContent())?.length ?? 0, 60_000).toBeGreaterThan(200);
    const pid = hostPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    const failed = assistant().and(page.locator('[data-status="error"]'));
    await failed.waitFor({ timeout: 30_000 });
    await poll(() => failed.textContent()).toContain(
      'The built-in engine stopped while answering (it was killed, likely out of memory). What it wrote is kept; send again to restart it.',
    );
    expect((await failed.locator('.msg-body').textContent()) ?? '').toMatch(
      /^Hello from llama\.( Hello from llama\.)+/,
    );
    await shots('local-chat-engine-stopped', true);
    expect(app.proc.exitCode).toBeNull();

    const more = page.getByRole('button', { name: 'More settings' });
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    await page.getByTestId('conv-settings').getByLabel('max tokens').fill('8');
    await page.getByTestId('conv-settings').getByLabel('max tokens').press('Tab');
    await page.getByTestId('composer').fill('hello again');
    await page.getByTestId('composer').press('Enter');
    const done = assistant().and(page.locator('[data-status="complete"]'));
    await poll(() => done.count(), 60_000).toBeGreaterThan(1);
    expect((await done.last().locator('.msg-body').textContent())?.trim()).toBe('Hello from llama. Hello from llama.');
    // A new engine process answered.
    expect(hostPid()).not.toBe(pid);
    expect(errors).toEqual([]);
  });

  it('a download whose bytes do not match the Hub’s checksum fails in words; Delete and download again downloads it', async () => {
    hub.cdn.corrupt = true;
    await page.evaluate((h) => (location.hash = h), `#/catalogue/model/${encodeURIComponent(REPO)}`);
    const quants = page.getByTestId('model-quants');
    // The default quant follows the fit once this machine is known (no GPU here: the largest Q4-class that fits).
    await quants.getByTestId('fit-hardware').waitFor({ timeout: 30_000 });
    await poll(() => quants.getByRole('radio', { name: 'Q4_0' }).isChecked()).toBe(true);
    await poll(() => inline().locator('.mono').first().textContent()).toBe(OTHER);
    await tabTo('local-download');
    await page.keyboard.press('Enter');
    const failed = inline().getByRole('alert');
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.textContent()).toMatch(/^The download failed: .*(checksum|sha256|match)/i);
    await shots('local-chat-download-failed', true);
    hub.cdn.corrupt = false;
    // The focus stayed in the panel: the button is reachable without the mouse, and says what it does.
    await tabTo('local-download');
    expect(await inline().getByTestId('local-download').textContent()).toBe('Delete and download again');
    await page.keyboard.press('Enter');
    await poll(() => state().textContent(), 60_000).toBe('downloaded');
    expect(await inline().getByTestId('local-chat').getAttribute('href')).toBe(
      `#/chat/new/local/${encodeURIComponent(`${REPO}/${OTHER}`)}`,
    );
    expect(errors).toEqual([]);
  });
});
