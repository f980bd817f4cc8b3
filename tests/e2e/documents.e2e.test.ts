import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  embeddingModel,
  fixtureModel,
  startOllamaFixture,
  tokens,
  type ChatRequest,
  type OllamaFixture,
} from '../fixtures/ollama';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

const FACT = 'The vault code of the Larkspur archive is 4417.';
const WORDS =
  'river meadow lantern copper harvest orchard willow granite pepper saddle thimble walnut ferry quarry ribbon'.split(
    ' ',
  );

/** A Markdown handbook far larger than the model's context (num_ctx 2048): 240 sections, one fact planted. */
function handbook(): string {
  const out: string[] = [];
  for (let s = 0; s < 240; s++) {
    out.push(`## Section ${s + 1}`);
    const words: string[] = [];
    for (let w = 0; w < 110; w++) words.push(WORDS[(s * 7 + w * 3 + ((w * w) % 5)) % WORDS.length]);
    out.push(`${words.join(' ')}.`);
    if (s === 150) out.push(FACT);
  }
  return out.join('\n\n');
}

const lastUser = (r: ChatRequest) => r.messages?.findLast((m) => m.role === 'user')?.content ?? '';

describe('chat with a document larger than the context (Ollama fixture with an embedding model, in Chromium)', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-docs-e2e-'));
  const file = join(dir, 'handbook.md');

  beforeAll(async () => {
    writeFileSync(file, handbook());
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2'), embeddingModel('nomic-embed-text')] });
    ollama.setShow('llama3.2:latest', { parameters: { num_ctx: 2048 } });
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = (r) => ({
      content: tokens(lastUser(r).includes('vault code') ? 'The vault code is 4417 [1].' : 'Hello.'),
    });
    ({ app, browser, page } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  it('attaches through the Attach menu, picks the embedding model and shows the indexing until ready', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    await page.getByRole('button', { name: 'Attach' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Files…' }).click();
    await (await chooser).setFiles(file);

    const strip = page.getByTestId('doc-strip');
    await strip.waitFor();
    await strip.getByRole('button', { name: /1 document/ }).click();
    const picker = page.getByTestId('embedder-picker');
    const select = picker.getByRole('combobox', { name: 'Embedding model' });
    await select.waitFor();
    if ((await select.inputValue()) !== 'ollama:nomic-embed-text:latest')
      await select.selectOption('ollama:nomic-embed-text:latest');
    await page.locator('[data-testid="doc-row"][data-state="ready"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('doc-row').textContent()).toMatch(/Ready · \d+ chunks/);
    await screenshot(page, 'documents-panel-1400');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'documents-panel-1024x700');
    expect(await checkBothThemes(page, 'documents panel')).toEqual([]);
    await page.setViewportSize({ width: 1400, height: 900 });
    await strip.getByRole('button', { name: /1 document/ }).click();
  });

  it('sends the passage with the fact and not the whole file; the reply cites it and the citation opens it', async () => {
    await page.getByTestId('composer').fill('What is the vault code of the Larkspur archive?');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]'));
    await reply.waitFor();

    const asked = ollama.requestsTo('/api/chat').map((r) => JSON.stringify(r.body));
    const sent = asked.findLast((b) => b.includes('vault code of the Larkspur'))!;
    expect(sent).toContain(FACT);
    // Passages, not the file: a few of its 240 sections, a small part of its text.
    const sections = sent.match(/## Section \d+/g) ?? [];
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.length).toBeLessThan(12);
    expect(sent.length).toBeLessThan(handbook().length / 5);

    const sources = reply.getByTestId('msg-sources');
    expect(await sources.textContent()).toContain('Retrieved passages');
    const chip = sources.getByTestId('source-chip').first();
    expect(await chip.textContent()).toContain('handbook.md');
    await chip.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('passage-dialog');
    await dialog.getByTestId('passage-text').waitFor();
    const passages = await sources.getByTestId('source-chip').count();
    expect(passages).toBeGreaterThan(0);
    await screenshot(page, 'documents-passage-1400');
    expect(await checkBothThemes(page, 'passage dialog')).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await chip.evaluate((el) => el === document.activeElement)).toBe(true);
    // The fact's passage is among those cited, and opens with its text.
    const texts: string[] = [];
    for (let i = 0; i < passages; i++) {
      await sources.getByTestId('source-chip').nth(i).click();
      texts.push((await dialog.getByTestId('passage-text').textContent()) ?? '');
      await page.keyboard.press('Escape');
    }
    expect(texts.some((t) => t.includes(FACT))).toBe(true);
    // The [1] in the reply's text opens source 1 too.
    await reply.getByRole('button', { name: 'Source 1: handbook.md' }).click();
    await dialog.getByTestId('passage-text').waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('[1] handbook.md');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'documents-reply-1024x700');
  });

  it('knowledge bases: created in the manager, picked for this chat in More settings, kept on the conversation', async () => {
    await page.getByRole('button', { name: 'More settings' }).click();
    const bases = page.getByTestId('chat-bases');
    await bases.getByText('None yet.').waitFor();
    await bases.getByRole('button', { name: 'Manage knowledge bases…' }).click();
    const dialog = page.getByTestId('kb-dialog');
    await dialog.getByRole('textbox', { name: 'New knowledge base name' }).fill('Project notes');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('kb-card').waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Knowledge base name', exact: true }).inputValue()).toBe(
      'Project notes',
    );
    await screenshot(page, 'documents-bases-1024x700');
    expect(await checkBothThemes(page, 'knowledge bases')).toEqual([]);
    await page.keyboard.press('Escape');
    const box = bases.getByRole('checkbox', { name: /Project notes/ });
    await box.check();
    await page.reload();
    await page.getByRole('button', { name: 'More settings' }).click();
    await bases.getByRole('checkbox', { name: /Project notes/ }).waitFor();
    expect(await bases.getByRole('checkbox', { name: /Project notes/ }).isChecked()).toBe(true);
    await page.getByTestId('doc-strip').getByText('Project notes').waitFor();
  });

  it('Settings → Documents shows the embedding model in use and the knowledge bases', async () => {
    await page.getByTestId('nav-settings').click();
    const card = page.getByTestId('documents-settings');
    const select = card.getByRole('combobox', { name: 'Embedding model' });
    await select.waitFor();
    expect(await select.inputValue()).toBe('ollama:nomic-embed-text:latest');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'documents-settings-1024x700');
    expect(await checkBothThemes(page, 'settings documents')).toEqual([]);
  });
});
