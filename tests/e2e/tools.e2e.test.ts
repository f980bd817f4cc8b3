import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

const SECRET = 'sk-e2e-secret-value-9876';

describe('Tools screen: MCP servers in Chromium (web mode)', () => {
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  /** Replaces the editor's whole text as a person would: select all, paste from the clipboard. */
  const setEditorText = async (text: string) => {
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.locator('[data-testid=mcp-editor] .monaco-editor').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+V');
  };
  const card = (name: string) => page.getByTestId(`mcp-server-${name}`);

  beforeAll(async () => {
    ({ app, browser, page, errors } = await openApp());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('opens on an empty state with a sample to insert', async () => {
    await page.getByTestId('nav-tools').click();
    await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
    await page.getByText('No MCP servers yet').waitFor();
    await page.locator('[data-testid=mcp-editor] .monaco-editor').waitFor();
    await page.getByRole('button', { name: 'Insert a sample config' }).click();
    await page.locator('[data-testid=mcp-editor]').getByText('server-filesystem').waitFor();
    await screenshot(page, 'tools-empty');
    await page.getByRole('button', { name: 'Revert' }).click();
  });

  it('shows a broken config’s error at its line and marks it in the editor', async () => {
    await setEditorText(
      '{\n  "mcpServers": {\n    "a": { "command": 42 },\n    "b": { "url": "https://x.test/mcp", }\n  }\n}',
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const problems = page.getByTestId('mcp-errors');
    await problems.getByText('Line 4, column 41').waitFor();
    await expect.poll(() => problems.textContent()).toMatch(/trailing commas are not JSON/);
    await page.getByText(/Not saved: 1 problem/).waitFor();
    // Valid JSON, wrong schema: the error moves to the value at fault.
    await setEditorText('{\n  "mcpServers": {\n    "a": { "command": 42 }\n  }\n}');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await problems.getByRole('button', { name: 'Line 3, column 23' }).waitFor();
    await expect.poll(() => problems.textContent()).toMatch(/command: .*expected string, received number/);
    await page.locator('[data-testid=mcp-editor] .squiggly-error').first().waitFor();
    await screenshot(page, 'tools-config-error');
    // The error's button moves the editor's cursor there.
    await problems.getByRole('button', { name: 'Line 3, column 23' }).click();
    await page.locator('[data-testid=mcp-editor] .monaco-editor.focused').waitFor();
  });

  it('saves a config for the stdio fixture server, shows it ready with its tools, and masks the secret', async () => {
    await setEditorText(mcpConfigText({ fixture: stdioEntry({ API_KEY: SECRET }, ['--rich-schema']) }));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved mcp.json.').waitFor();
    await card('fixture').getByTestId('mcp-state').getByText('ready · 10 tools').waitFor({ timeout: 20_000 });
    const editorText = async () => (await page.getByTestId('mcp-editor').innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(editorText).toContain('"API_KEY": "•••• 9876"');
    expect(await page.content()).not.toContain(SECRET);
    await card('fixture').getByText('hubdesk-fixture 1.2.3').waitFor();
  });

  it('runs a tool from the "Try it" form, checks required fields first, and keeps the raw JSON as an option', async () => {
    await card('fixture').getByRole('button', { name: /^add/ }).click();
    const form = card('fixture').getByRole('form', { name: 'Try add' });
    await form.getByRole('button', { name: 'Run add' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Not run: check a, b.');
    await expect.poll(() => form.getByText('Required: fill this in.').count()).toBe(2);
    await form.getByLabel('a required', { exact: true }).fill('2');
    await form.getByLabel('b required', { exact: true }).fill('40');
    await form.getByRole('button', { name: 'Run add' }).click();
    await form.getByTestId('mcp-result').getByText('42', { exact: true }).waitFor();
    await screenshot(page, 'tools-ready');
    // The raw editor holds what the form held, and takes over until toggled back.
    await form.getByRole('button', { name: 'Raw JSON' }).click();
    const args = form.getByLabel('Arguments (JSON)');
    await expect.poll(async () => JSON.parse(await args.inputValue())).toEqual({ a: 2, b: 40 });
    await args.fill('{ "a": 2, ');
    await form.getByRole('button', { name: 'Run add' }).click();
    await form
      .getByRole('alert')
      .getByText(/The arguments are not valid JSON/)
      .waitFor();
    await args.fill('{ "a": 5, "b": 6 }');
    await form.getByRole('button', { name: 'Raw JSON' }).click();
    await expect.poll(() => form.getByLabel('a required', { exact: true }).inputValue()).toBe('5');
  });

  it('builds the form from a rich input schema and is run with the keyboard alone', async () => {
    const search = card('fixture').getByRole('button', { name: /^search/ });
    await search.focus();
    await page.keyboard.press('Enter');
    const form = card('fixture').getByRole('form', { name: 'Try search' });
    await page.keyboard.press('Tab');
    await page.keyboard.insertText('llama');
    await page.keyboard.press('Tab');
    await page.keyboard.insertText('huggingface.co');
    await page.keyboard.press('Tab'); // sort: relevance → date
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab'); // limit, prefilled 10
    await page.keyboard.press('Tab'); // exact
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // tags, one per line
    await page.keyboard.insertText('gguf');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('chat');
    await page.keyboard.press('Control+Enter');
    // The address is checked before the call, said at its field, which gets the focus back.
    const site = form.getByLabel('site', { exact: true });
    await form.getByText('Not a full address: it should start with https:// or similar.').waitFor();
    await expect.poll(() => site.evaluate((e) => e === document.activeElement)).toBe(true);
    await screenshot(page, 'tools-form-error');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('https://huggingface.co');
    await page.keyboard.press('Control+Enter');
    const result = form.getByTestId('mcp-result').locator('pre');
    await result.waitFor();
    expect(JSON.parse(await result.innerText())).toEqual({
      query: 'llama',
      site: 'https://huggingface.co',
      sort: 'date',
      limit: 10,
      exact: true,
      tags: ['gguf', 'chat'],
    });
    await page.setViewportSize({ width: 1400, height: 900 });
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'tools-form-1400');
    await page.setViewportSize({ width: 1024, height: 700 });
    await form.getByRole('group', { name: /filter/ }).scrollIntoViewIfNeeded();
    await screenshot(page, 'tools-form-1024');
    expect(await checkBothThemes(page, 'tools form')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('is keyboard-complete: open a tool with Enter, run with Ctrl+Enter', async () => {
    const echo = card('fixture').getByRole('button', { name: /^echo/ });
    await echo.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => echo.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-fixture-echo-text');
    await page.keyboard.insertText('typed with the keyboard');
    await page.keyboard.press('Control+Enter');
    await card('fixture').getByTestId('mcp-result').getByText('typed with the keyboard').waitFor();
  });

  it('shows the server’s stderr log with secrets masked', async () => {
    await card('fixture').getByRole('button', { name: /^log/ }).click();
    await card('fixture')
      .getByRole('form', { name: 'Try log' })
      .getByLabel('text', { exact: true })
      .fill(`key=${SECRET}`);
    await card('fixture').getByRole('button', { name: 'Run log' }).click();
    await card('fixture').getByTestId('mcp-result').last().getByText('logged').waitFor();
    await card('fixture').getByRole('button', { name: 'Log', exact: true }).click();
    const log = card('fixture').getByLabel('stderr of fixture');
    await log.getByText(/fixture server started/).waitFor();
    expect(await log.innerText()).toContain('key=***');
    expect(await log.innerText()).not.toContain(SECRET);
    await screenshot(page, 'tools-log');
  });

  it('stops and starts a server from its card', async () => {
    await card('fixture').getByRole('button', { name: 'Stop', exact: true }).click();
    await card('fixture').getByTestId('mcp-state').getByText('stopped').waitFor();
    await card('fixture').getByRole('button', { name: 'Start', exact: true }).click();
    await card('fixture').getByTestId('mcp-state').getByText('ready · 10 tools').waitFor({ timeout: 20_000 });
  });

  it('imports another app’s file, and follows edits of mcp.json on disk', async () => {
    await page.getByTestId('mcp-import-file').setInputFiles({
      name: 'claude_desktop_config.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ mcpServers: { second: stdioEntry() } })),
    });
    await page.getByText('Imported the servers of claude_desktop_config.json.').waitFor();
    await card('second').getByTestId('mcp-state').getByText('ready · 9 tools').waitFor({ timeout: 20_000 });

    await page.getByText('Paste another app’s config to import').click();
    await page
      .getByLabel(/its servers are added to yours/)
      .fill(JSON.stringify({ servers: { third: { type: 'http', url: 'https://third.test/mcp', disabled: true } } }));
    await page.getByRole('button', { name: 'Import pasted config' }).click();
    await card('third').getByTestId('mcp-state').getByText('disabled').waitFor();

    // An edit on disk while the editor holds unsaved changes: say so, and load it on Revert.
    await page.locator('[data-testid=mcp-editor] .monaco-editor').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' ');
    writeFileSync(join(app.dataDir, 'mcp.json'), mcpConfigText({ ondisk: { ...stdioEntry(), disabled: true } }));
    await page.getByText('mcp.json changed outside this editor').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Revert' }).click();
    await card('ondisk').getByTestId('mcp-state').getByText('disabled').waitFor({ timeout: 10_000 });
    await expect.poll(() => card('fixture').count()).toBe(0);
    await page.getByTestId('mcp-editor').getByText('"ondisk"').waitFor();
    await screenshot(page, 'tools-reloaded');
    expect(errors).toEqual([]);
  });
});
