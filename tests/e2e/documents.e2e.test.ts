import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureModel, startOllamaFixture, tokens, type ChatRequest, type OllamaFixture } from '../fixtures/ollama';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

const FACT = 'The vault code of the **Larkspur** archive is 4417.';
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
    // Ollama as a person has it after "ollama pull nomic-embed-text": listed by its family, no capabilities.
    ollama = await startOllamaFixture({
      models: [fixtureModel('llama3.2'), fixtureModel('nomic-embed-text', { family: 'nomic-bert' })],
      registry: {
        'nomic-embed-text:latest': {
          layers: [274_000_000, 100],
          details: { family: 'nomic-bert', families: ['nomic-bert'] },
        },
      },
    });
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

  /** A new chat with the Ollama model, and the file attached through Attach → Files…, as a person does. */
  async function attachInNewChat() {
    await page.getByTestId('new-chat').click();
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    await page.getByRole('button', { name: 'Attach' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Files…' }).click();
    await (await chooser).setFiles(file);
  }

  it('attaching is enough: the installed embedding model is taken, shown in the strip where it can be changed', async () => {
    await page.getByTestId('nav-chat').click();
    await attachInNewChat();

    // No setting touched: the file is indexed to ready with the only embedding model there is.
    const strip = page.getByTestId('doc-strip');
    await strip.getByTestId('doc-chip').and(page.locator('.doc-ready')).waitFor({ timeout: 60_000 });
    expect(await strip.getByTestId('doc-stopped').count()).toBe(0);
    expect(await strip.textContent()).not.toMatch(/indexing|Choose/);
    const used = strip.getByTestId('doc-embedder');
    expect(await used.textContent()).toBe('Embeddings: nomic-embed-text');
    await screenshot(page, 'documents-strip-1400');
    // Where it can be changed: the chip opens the panel on the picker, which shows it chosen.
    await used.click();
    const select = page.getByTestId('embedder-picker').getByRole('combobox', { name: 'Embedding model' });
    await expect.poll(() => select.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await select.inputValue()).toBe('ollama:nomic-embed-text:latest');
    expect(await page.getByTestId('doc-row').textContent()).toMatch(/Ready · \d+ chunks/);
    await screenshot(page, 'documents-panel-1400');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'documents-panel-1024x700');
    expect(await checkBothThemes(page, 'documents panel')).toEqual([]);
    await page.setViewportSize({ width: 1400, height: 900 });
    await strip.getByRole('button', { name: /1 document/ }).click();
  });

  it('sends and cites only the passage with the fact, first; the chip names the file; the passage opens as Markdown', async () => {
    await page.getByTestId('composer').fill('What is the vault code of the Larkspur archive?');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]'));
    await reply.waitFor();

    const asked = ollama.requestsTo('/api/chat').map((r) => JSON.stringify(r.body));
    const sent = asked.findLast((b) => b.includes('vault code of the Larkspur'))!;
    expect(sent).toContain(JSON.stringify(FACT).slice(1, -1));
    // Passages, not the file: a few of its 240 sections, a small part of its text.
    const sections = sent.match(/## Section \d+/g) ?? [];
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.length).toBeLessThan(4);
    expect(sent.length).toBeLessThan(handbook().length / 20);

    const sources = reply.getByTestId('msg-sources');
    expect(await sources.getByTestId('msg-sources-how').textContent()).toBe(
      'Retrieved passages were given to the model',
    );
    expect(await reply.textContent()).not.toContain('did not see');
    // Above the relevance floor only: the fact's passage is [1], with few (if any) beside it.
    const chips = sources.getByTestId('source-chip');
    const passages = await chips.count();
    expect(passages).toBeGreaterThan(0);
    expect(passages).toBeLessThan(4);
    const chip = chips.first();
    // The file name whole on the chip (not cut by the heading after it).
    const name = chip.getByTestId('source-name');
    expect(await name.textContent()).toBe('handbook.md');
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await chip.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('passage-dialog');
    const text = dialog.getByTestId('passage-text');
    await text.locator('strong').waitFor();
    // Rendered, not raw: the bold is bold, the heading a heading, no ** or ## left.
    expect(await text.locator('strong').first().textContent()).toBe('Larkspur');
    expect(await text.textContent()).toContain('The vault code of the Larkspur archive is 4417.');
    expect(await text.textContent()).not.toMatch(/\*\*|##/);
    expect(await text.getByRole('heading').count()).toBeGreaterThan(0);
    await screenshot(page, 'documents-passage-1400');
    expect(await checkBothThemes(page, 'passage dialog')).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'documents-passage-1024x700');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.keyboard.press('Escape');
    expect(await chip.evaluate((el) => el === document.activeElement)).toBe(true);
    // The [1] in the reply's text opens source 1 too.
    await reply.getByRole('button', { name: 'Source 1: handbook.md' }).click();
    await text.waitFor();
    expect(await dialog.getByRole('heading', { name: '[1] handbook.md' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'documents-reply-1024x700');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('a question the documents know nothing of is given no passage and shows no source', async () => {
    const before = await page.getByTestId('msg-assistant').count();
    await page.getByTestId('composer').fill('FAIL500 please');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').nth(before);
    await reply.and(page.locator('[data-status="complete"]')).waitFor();
    expect(await reply.getByTestId('source-chip').count()).toBe(0);
    expect(await reply.getByTestId('msg-sources-how').textContent()).toBe(
      'No passage matched this question closely enough, so none was given to the model',
    );
    const sent = ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages[0].content).not.toContain('## Section');
  });

  it('when indexing cannot go on the strip says why and offers the way on; words-only answers say so', async () => {
    // The embedding model is gone from Ollama (removed outside HubDesk): a new chat's file cannot be embedded.
    ollama.models = ollama.models.filter((m) => !m.name.startsWith('nomic-embed-text'));
    await attachInNewChat();
    const strip = page.getByTestId('doc-strip');
    const stopped = strip.getByTestId('doc-stopped');
    await stopped.waitFor({ timeout: 60_000 });
    expect(await stopped.textContent()).toContain('is not on your Ollama server');
    expect(await strip.getByRole('button', { name: /1 document/ }).textContent()).toContain('1 not indexed');
    const pull = stopped.getByRole('button', { name: 'Pull nomic-embed-text:latest' });
    await pull.waitFor();
    expect(await stopped.getByRole('button', { name: 'Choose a model…' }).count()).toBe(1);
    await screenshot(page, 'documents-stopped-1400');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'documents-stopped-1024x700');
    expect(await checkBothThemes(page, 'documents stopped')).toEqual([]);
    await page.setViewportSize({ width: 1400, height: 900 });

    // Asked now: the passages found by words alone reached the model, and the reply says exactly that.
    await page.getByTestId('composer').fill('What is the vault code of the Larkspur archive?');
    await page.getByTestId('composer').press('Enter');
    const reply = page.getByTestId('msg-assistant').and(page.locator('[data-status="complete"]'));
    await reply.waitFor();
    expect(await reply.getByTestId('msg-sources-how').textContent()).toBe(
      'Passages found by words alone were given to the model (search by meaning was not ready for handbook.md)',
    );
    expect(await reply.textContent()).not.toMatch(/Retrieved passages|did not see/);
    expect(await reply.getByTestId('source-chip').count()).toBeGreaterThan(0);
    await screenshot(page, 'documents-words-only-1400');

    // The way on: Pull, and indexing goes on by itself to ready.
    await pull.click();
    await strip.getByTestId('doc-chip').and(page.locator('.doc-ready')).waitFor({ timeout: 60_000 });
    expect(await stopped.count()).toBe(0);
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
