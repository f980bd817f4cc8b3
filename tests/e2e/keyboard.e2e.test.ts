import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

const GGUF = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
const SENTENCES = Array.from({ length: 24 }, (_, i) => `This is sentence number ${i + 1} of the reply.`).join(' ');

/** Keyboard only: every step is a key press (page.keyboard); the mouse is never used. */
describe('keyboard paths (web mode, Chromium)', () => {
  let hub: HubFixture;
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  const active = (attr: string) => page.evaluate((a) => document.activeElement?.getAttribute(a) ?? null, attr);
  const hash = () => page.evaluate(() => location.hash);
  /** Presses Tab (or Shift+Tab) until the focused element matches `selector` (and `text`); fails after `max`. */
  const tabTo = async (selector: string, max = 60, key = 'Tab', text?: string) => {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(key);
      const hit = await page.evaluate(
        ([s, t]) => !!document.activeElement?.matches(s!) && (!t || document.activeElement?.textContent?.trim() === t),
        [selector, text],
      );
      if (hit) return i + 1;
    }
    throw new Error(`${selector} not reached in ${max} presses of ${key}`);
  };
  /** The option the search box points at with aria-activedescendant. */
  const activeOption = () =>
    page.evaluate(() => {
      const id = document.activeElement?.getAttribute('aria-activedescendant');
      const el = id ? document.getElementById(id) : null;
      return el ? { id, selected: el.getAttribute('aria-selected'), repo: el.getAttribute('data-id') } : null;
    });

  beforeAll(async () => {
    hub = await startHubFixture();
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.chunkIntervalMs = 40;
    ollama.chatScript = () => ({ content: tokens(SENTENCES) });
    ({ app, browser, page, errors } = await openApp({
      firstRun: true,
      env: { HF_ENDPOINT: hub.url, OLLAMA_HOST: ollama.url },
    }));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await page.getByTestId('first-run').waitFor();
    await page.keyboard.press('Enter'); // "Use the Hugging Face Hub"
    await page.getByTestId('hub-list-models').locator('a.hub-row').first().waitFor();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(page, `keyboard-failed-${ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await hub?.stop();
    await ollama?.stop();
  });

  it('the first Tab reaches "Skip to main content"; Enter moves the focus to the main content', async () => {
    const before = await hash();
    await page.keyboard.press('Tab');
    expect(await active('data-testid')).toBe('skip-main');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await screenshot(page, 'keyboard-skip-link');
    await page.keyboard.press('Enter');
    expect(await active('id')).toBe('main-content');
    expect(await hash()).toBe(before);
    // The next Tab is inside the main content: the search box, not the navigation.
    await page.keyboard.press('Tab');
    expect(await active('id')).toBe('catalogue-search');
  });

  it('Ctrl+K focuses search from another page; Escape in the empty box returns there', async () => {
    await tabTo('[data-testid="nav-chat"]', 20, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(hash).toBe('#/chat');
    await page.keyboard.press('Control+k');
    await expect.poll(() => active('id')).toBe('catalogue-search');
    expect(await hash()).toBe('#/catalogue');
    await page.keyboard.press('Escape');
    await expect.poll(hash).toBe('#/chat');
    await page.keyboard.press('Control+k');
    await expect.poll(() => active('id')).toBe('catalogue-search');
  });

  it('search box as a combobox: ↓ walks the chips into the Hub rows as one list; Enter opens either; Escape steps back', async () => {
    await page.keyboard.type('llama');
    const list = page.getByTestId('hub-list-models');
    await list.locator(`a[data-id="${GGUF}"]`).waitFor();
    const box = page.locator('#catalogue-search');
    expect(await box.getAttribute('role')).toBe('combobox');
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    const listbox = page.locator(`#${await box.getAttribute('aria-controls')}`);
    expect(await listbox.getAttribute('role')).toBe('listbox');
    // The groups sit where they are shown (tabs and filters between them); the listbox owns them.
    expect(await listbox.getAttribute('aria-owns')).toBe('search-group-chips search-group-hub');
    const chips = page.getByRole('group', { name: 'Tasks and libraries' }).getByRole('option');
    const nChips = await chips.count();
    expect(nChips).toBeGreaterThan(0);
    expect(await activeOption()).toBeNull();

    await page.keyboard.press('ArrowDown');
    expect(await activeOption()).toMatchObject({ id: 'search-option-chips-0', selected: 'true' });
    for (let i = 0; i < nChips; i++) await page.keyboard.press('ArrowDown');
    expect(await activeOption()).toMatchObject({ id: 'search-option-hub-0', selected: 'true' });
    await page.keyboard.press('ArrowDown');
    expect(await activeOption()).toMatchObject({ id: 'search-option-hub-1', selected: 'true' });
    expect(await page.locator('[role="option"][aria-selected="true"]').count()).toBe(1);
    await screenshot(page, 'keyboard-search-active');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'keyboard-search-active-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await activeOption()).toMatchObject({ id: `search-option-chips-${nChips - 1}` });
    // The focus never left the box.
    expect(await active('id')).toBe('catalogue-search');
    expect(await checkBothThemes(page, 'search list open on a chip')).toEqual([]);
    for (const [width, height] of [
      [1400, 900],
      [1024, 700],
    ]) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `keyboard-search-chip-active-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Enter on a chip opens its page; the box is empty there (it is not that page's search), Back brings it again.
    await page.keyboard.press('Home');
    expect(await activeOption()).toMatchObject({ id: 'search-option-chips-0' });
    const chipHref = await chips.first().getAttribute('href');
    await page.keyboard.press('Enter');
    await expect.poll(hash).toBe(chipHref);
    await expect.poll(() => box.inputValue()).toBe('');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.goBack();
    await expect.poll(() => box.inputValue()).toBe('llama');
    await list.locator(`a[data-id="${GGUF}"]`).waitFor();
    await page.keyboard.press('Control+k');

    // Escape: out of the list first (the query stays), then the query is cleared.
    await page.keyboard.press('ArrowDown');
    expect(await activeOption()).not.toBeNull();
    await page.keyboard.press('Escape');
    expect(await activeOption()).toBeNull();
    expect(await box.inputValue()).toBe('llama');
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');

    await page.keyboard.type('llama-3.2-1b');
    await expect.poll(() => list.locator('a.hub-row').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    expect((await activeOption())?.repo).toBe(GGUF);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('model-id').textContent()).toBe(GGUF);
  });

  it('from a search result to the first snippet’s Copy in 3 key presses (Enter, Tab, Enter)', async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('llama-3.2-1b');
    await expect.poll(() => page.getByTestId('hub-list-models').locator('a.hub-row').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    expect((await activeOption())?.repo).toBe(GGUF);

    const presses: string[] = [];
    const press = async (key: string) => {
      presses.push(key);
      await page.keyboard.press(key);
    };
    await press('Enter'); // opens the model
    // The page and its snippets load (no key is pressed while waiting).
    await page.getByTestId('copy-snippet').waitFor();
    await press('Tab'); // "Skip to Use this model"
    expect(await active('data-testid')).toBe('skip-use');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to Use this model');
    await screenshot(page, 'keyboard-skip-to-use');
    await press('Enter'); // lands on the first snippet's Copy
    expect(await active('data-testid')).toBe('copy-snippet');
    expect(presses).toEqual(['Enter', 'Tab', 'Enter']);
    await screenshot(page, 'keyboard-copy-focused');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'keyboard-copy-focused-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The next press copies it.
    await page.keyboard.press('Enter');
    await page.getByTestId('toast').getByText('Snippet copied to the clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Llama-3.2-1B-Instruct-GGUF');
  });

  it('snippet tabs: one tab stop, ←/→/Home/End select, aria-selected and the panel follow', async () => {
    const kinds = page.getByRole('tablist', { name: 'Snippet kind' });
    const tabs = kinds.getByRole('tab');
    const n = await tabs.count();
    // Back from Copy to the selected kind tab: only the selected tab is a tab stop.
    await tabTo('[role="tablist"][aria-label="Snippet kind"] [role="tab"]', 40, 'Shift+Tab');
    expect(await active('aria-selected')).toBe('true');
    expect(await kinds.locator('[role="tab"][tabindex="0"]').count()).toBe(1);
    expect(await kinds.locator('[role="tab"][tabindex="-1"]').count()).toBe(n - 1);
    const start = await active('id');
    const panel = page.locator('#sw-kind-panel');
    expect(await panel.getAttribute('role')).toBe('tabpanel');

    await page.keyboard.press('Home');
    expect(await active('data-testid')).toBe('kind-inference');
    expect(await active('aria-selected')).toBe('true');
    expect(await panel.getAttribute('aria-labelledby')).toBe(await active('id'));
    await page.keyboard.press('ArrowRight');
    expect(await active('data-testid')).toBe('kind-library');
    expect(await active('aria-selected')).toBe('true');
    expect(await kinds.locator('[aria-selected="true"]').count()).toBe(1);
    // The last tab: "Other apps", as this repo's GGUF is on disk (the local server's setups for it).
    await page.keyboard.press('End');
    expect(await active('data-testid')).toBe('kind-other-apps');
    await page.keyboard.press('ArrowRight'); // wraps to the first
    expect(await active('data-testid')).toBe('kind-inference');
    await page.keyboard.press('ArrowLeft'); // and back to the last
    expect(await active('data-testid')).toBe('kind-other-apps');
    expect(start).toBeTruthy();

    // Language and client tabs: the same pattern, and the pane is labelled by the selected pair.
    await page.keyboard.press('Home');
    await page.getByRole('tablist', { name: 'Language' }).waitFor();
    await tabTo('[role="tablist"][aria-label="Language"] [role="tab"]', 20);
    const langs = page.getByRole('tablist', { name: 'Language' }).getByRole('tab');
    expect(await langs.count()).toBeGreaterThan(1);
    const first = await active('id');
    await page.keyboard.press('ArrowRight');
    const second = await active('id');
    expect(second).not.toBe(first);
    expect(await active('aria-selected')).toBe('true');
    await expect.poll(() => page.locator('#sw-pane').getAttribute('aria-labelledby')).toContain(second!);
    await tabTo('[role="tablist"][aria-label="Client"] [role="tab"]', 5);
    expect(await active('aria-selected')).toBe('true');
    await screenshot(page, 'keyboard-snippet-tabs');

    // The editor is no keyboard trap: Tab goes in and out again; Ctrl+K works from inside it too.
    await tabTo('.monaco-editor *', 12);
    const inEditor = () => page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'));
    await page.keyboard.press('Tab');
    expect(await inEditor()).toBe(false);
    await page.keyboard.press('Shift+Tab');
    expect(await inEditor()).toBe(true);
    await page.keyboard.press('Control+k');
    await expect.poll(() => active('id')).toBe('catalogue-search');
  });

  it('the model details drawer is a modal dialog: focus trapped, Escape closes, focus returns', async () => {
    await page.keyboard.press('Control+k'); // back to a known place, then to Local models through the navigation
    await tabTo('[data-testid="nav-models"]', 20, 'Shift+Tab');
    await page.keyboard.press('Enter');
    const row = page.getByTestId('models-table').getByRole('button', { name: 'llama3.2:latest', exact: true });
    await row.waitFor();
    await tabTo('[data-testid="models-table"] button.link-button', 40);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Details of llama3.2:latest' });
    await drawer.waitFor();
    expect(await drawer.getAttribute('aria-modal')).toBe('true');
    const inDrawer = () => drawer.evaluate((el) => el.contains(document.activeElement));
    expect(await inDrawer()).toBe(true);
    await drawer.getByText('Parameters').first().waitFor();
    // More Tabs than it has controls, and Shift+Tab from the first: the focus stays inside.
    const controls = await drawer.locator('a[href], button, summary, [tabindex="0"]').count();
    for (let i = 0; i < controls + 2; i++) {
      await page.keyboard.press('Tab');
      expect(await inDrawer()).toBe(true);
    }
    await screenshot(page, 'keyboard-drawer');

    // A dialog over it: Copy / rename takes the focus; Escape closes only that dialog.
    await tabTo('button', controls + 2, 'Tab', 'Copy / rename');
    await page.keyboard.press('Enter');
    const copy = page.getByRole('dialog', { name: 'Copy llama3.2:latest' });
    await copy.waitFor();
    expect(await copy.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await copy.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await copy.waitFor({ state: 'detached' });
    await drawer.waitFor();
    await expect.poll(inDrawer).toBe(true);

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    // Back on the control that opened it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('llama3.2:latest');
  });

  it('a streaming reply is announced politely: throttled, only new finished sentences, then "Reply complete"', async () => {
    await page.keyboard.press('Control+k');
    await tabTo('[data-testid="nav-chat"]', 20, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await tabTo('[data-testid="new-chat"]', 20);
    await page.keyboard.press('Enter');
    await expect.poll(() => active('data-testid')).toBe('composer');
    const region = page.getByTestId('reply-announcer');
    expect(await region.getAttribute('aria-live')).toBe('polite');
    await region.evaluate((el) => {
      const w = window as unknown as { said: { t: number; text: string }[] };
      w.said = [];
      new MutationObserver(() => w.said.push({ t: performance.now(), text: el.textContent ?? '' })).observe(el, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    // Choose the model with the keyboard: the model select is before the composer.
    await tabTo('[data-testid="model-select"]', 20, 'Shift+Tab');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByTestId('model-select').inputValue()).toBe('llama3.2:latest');
    await tabTo('[data-testid="composer"]', 20);
    await page.keyboard.type('Tell me a story');
    await page.keyboard.press('Enter');
    const streaming = page.getByTestId('msg-streaming');
    await streaming.waitFor();
    // The message itself is not a live region: only the announcer speaks.
    expect(await streaming.evaluate((el) => !!el.closest('[aria-live]'))).toBe(false);
    await expect.poll(() => region.textContent(), { timeout: 30_000 }).toContain('Reply complete.');

    const said = (await page.evaluate(() => (window as unknown as { said: { t: number; text: string }[] }).said))
      .map((s) => ({ ...s, text: s.text.trim() }))
      .filter((s) => s.text);
    const chunks = tokens(SENTENCES).length;
    expect(said.length).toBeGreaterThan(1);
    expect(said.length).toBeLessThan(chunks / 4);
    // Throttled: never two announcements less than 1.5 s apart (the code waits at least that long; a slower
    // machine only makes the gaps longer).
    for (let i = 1; i < said.length; i++) expect(said[i].t - said[i - 1].t).toBeGreaterThanOrEqual(1450);
    // Each is whole sentences, none the whole message, and together they are the reply, said once.
    for (const s of said.slice(0, -1)) {
      expect(s.text).toMatch(/\.$/);
      expect(s.text.length).toBeLessThan(SENTENCES.length);
    }
    expect(said.at(-1)!.text).toMatch(/Reply complete\.$/);
    const all = said
      .map((s) => s.text)
      .join(' ')
      .replace(/\s*Reply complete\.$/, '');
    expect(all).toBe(SENTENCES);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('offline: the embedded rows, then the Hub rows seen before, one list; Enter opens a row of either', async () => {
    await page.keyboard.press('Control+,');
    await expect.poll(hash).toBe('#/settings');
    // A radio group: one tab stop (the checked choice); the arrow key moves and checks.
    await page.getByTestId('hub-access-online').waitFor();
    // Tab goes on from where the last focused control was (the chat composer, gone): round the page if need be.
    await tabTo('[data-testid="hub-access-online"]', 150);
    expect(await page.getByTestId('hub-access-offline').getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('ArrowRight');
    expect(await active('data-testid')).toBe('hub-access-offline');
    await expect.poll(() => page.getByTestId('hub-access-offline').getAttribute('aria-checked')).toBe('true');
    await page.keyboard.press('Control+k');
    // As a person does: typing once the box (on the catalogue, opened by the shortcut) has the focus, its old text
    // selected, so the new query replaces it whole.
    await expect.poll(() => active('id')).toBe('catalogue-search');
    await page.keyboard.type('llama');
    expect(await page.locator('#catalogue-search').inputValue()).toBe('llama');
    const results = page.getByTestId('catalogue-results');
    await results.getByRole('option').first().waitFor();
    expect(await results.getAttribute('role')).toBe('group');
    // Hub rows for "llama" were seen online above: they come from the cache, after the embedded rows.
    const seen = page.getByRole('group', { name: 'Models seen on the Hub' });
    await seen.getByRole('option').first().waitFor();
    // The kind filter after the box is a radio group too.
    await page.keyboard.press('Tab');
    expect(await active('aria-checked')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('All');
    await page.keyboard.press('ArrowRight');
    expect(await active('data-testid')).toBe('kind-task');
    expect(await active('aria-checked')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Shift+Tab');
    expect(await active('id')).toBe('catalogue-search');
    const listbox = page.locator(`#${await page.locator('#catalogue-search').getAttribute('aria-controls')}`);
    expect(await listbox.getAttribute('aria-owns')).toBe(
      `${await results.getAttribute('id')} ${await seen.getAttribute('id')}`,
    );
    // End: the last row of all, a cached one; Enter opens it. (Asked again after the checks: the cached group may
    // still have grown while they ran, and End goes to its new last row.)
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    const reached = await activeOption();
    expect(reached?.id).toMatch(/^search-option-seen-\d+$/);
    expect(await checkBothThemes(page, 'offline search list open on a cached row')).toEqual([]);
    await screenshot(page, 'keyboard-search-offline-seen');
    // The cached group may be asked again from the cache while the checks run (its rows replaced): End again reaches
    // its last row however it changed. Keeping the active row by identity is tests/unit/search-listbox.test.ts's.
    await page.keyboard.press('End');
    const last = await activeOption();
    expect(last?.id).toMatch(/^search-option-seen-\d+$/);
    await page.keyboard.press('Enter');
    await expect.poll(hash).toBe(`#/catalogue/model/${encodeURIComponent(last!.repo!)}`);
    await page.goBack();
    await results.getByRole('option').first().waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.press('ArrowDown');
    expect(await activeOption()).toMatchObject({ id: 'search-option-embedded-0', selected: 'true' });
    // The next row: the second embedded one, or the first cached one when "llama" matched one embedded row only.
    await page.keyboard.press('ArrowDown');
    const opt = await activeOption();
    expect(opt?.id).toMatch(/^search-option-(embedded-1|seen-0)$/);
    expect(opt?.selected).toBe('true');
    const href = await page.locator(`#${opt!.id}`).getAttribute('href');
    await page.keyboard.press('Enter');
    await expect.poll(hash).toBe(href);
  });
});
