import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mcpConfigText, startMcpHttpFixture, type McpHttpFixture } from '../fixtures/mcp-fixture';
import { openApp, screenshot, type WebApp } from './harness';

const KEY = 'e2e-key-for-a-0123456789';
const NEW_KEY = 'e2e-key-for-b-9876543210';

describe('Tools screen: a stored secret is not sent to a URL it was not typed for (web mode, Chromium)', () => {
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  /** a requires the key; b takes anything and records the headers it was sent. */
  let a: McpHttpFixture;
  let b: McpHttpFixture;
  const remote = (url: string, key: string) => mcpConfigText({ remote: { url, headers: { 'X-Api-Key': key } } });
  const moved = (from: McpHttpFixture, to: McpHttpFixture) =>
    `The X-Api-Key header of "remote" was entered for ${new URL(from.url).origin}; the URL now goes to ${new URL(to.url).origin}, so the stored value is not sent there: type it again.`;

  /** Replaces the editor's whole text as a person would: select all, paste from the clipboard. */
  const setEditorText = async (text: string) => {
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.locator('[data-testid=mcp-editor] .monaco-editor').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+V');
  };
  const save = () => page.getByRole('button', { name: 'Save', exact: true }).click();
  const state = () => page.getByTestId('mcp-server-remote').getByTestId('mcp-state');

  beforeAll(async () => {
    [a, b] = await Promise.all([startMcpHttpFixture(['--require-header', `X-Api-Key=${KEY}`]), startMcpHttpFixture()]);
    ({ app, browser, page, errors } = await openApp());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    await page.getByTestId('nav-tools').click();
    await page.locator('[data-testid=mcp-editor] .monaco-editor').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('saving the masked text with the URL moved is refused at the header’s line, and b gets nothing', async () => {
    await setEditorText(remote(a.url, KEY));
    await save();
    await page.getByText('Saved mcp.json.').waitFor();
    await state().getByText('ready · 9 tools').waitFor({ timeout: 20_000 });

    // What a person does: edit only the URL of the masked text the page shows, and save.
    await setEditorText(remote(b.url, `•••• ${KEY.slice(-4)}`));
    await save();
    const problems = page.getByTestId('mcp-errors');
    await problems.getByRole('button', { name: 'Line 6, column 22' }).waitFor();
    await expect.poll(() => problems.textContent()).toContain(moved(a, b));
    await page.getByText(/Not saved: 1 problem/).waitFor();
    await page.locator('[data-testid=mcp-editor] .squiggly-error').first().waitFor();
    await screenshot(page, 'tools-secret-url-moved');
    expect(JSON.stringify(b.requests)).not.toContain(KEY);

    // Typed again for b: saved, sent there.
    await setEditorText(remote(b.url, NEW_KEY));
    await save();
    await page.getByText('Saved mcp.json.').waitFor();
    await state().getByText('ready · 9 tools').waitFor({ timeout: 20_000 });
    await expect.poll(() => JSON.stringify(b.requests)).toContain(NEW_KEY);
    expect(JSON.stringify(b.requests)).not.toContain(KEY);
  });

  it('an edit on disk that moves the URL back shows why the value was dropped, in the editor and on the server', async () => {
    writeFileSync(join(app.dataDir, 'mcp.json'), remote(a.url, `•••• ${NEW_KEY.slice(-4)}`));
    const problems = page.getByTestId('mcp-errors');
    await expect.poll(() => problems.textContent(), { timeout: 10_000 }).toContain(moved(b, a));
    await problems.getByRole('button', { name: 'Line 6, column 22' }).waitFor();
    // The server stays on the page, saying why it does not run.
    await state().getByText('error').waitFor({ timeout: 10_000 });
    await page.getByTestId('mcp-server-remote').getByRole('alert').getByText(moved(b, a)).waitFor();
    expect(await page.getByText('No MCP servers yet').count()).toBe(0);
    await screenshot(page, 'tools-secret-dropped-on-disk');
    expect(errors).toEqual([]);
  });
});
