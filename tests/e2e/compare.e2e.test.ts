import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { tempDir } from '../helpers/app';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { axeViolations, checkBothThemes } from './a11y';
import { launchBrowser, screenshot, startWebApp, watchErrors, type WebApp } from './harness';

const A = 'llama3.2:latest';
const B = 'qwen3:8b';

describe('Compare in Chromium against the Ollama fixture', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const data = tempDir('hubdesk-e2e-compare-');

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2'), fixtureModel(B, { family: 'qwen3' })] });
    ollama.chunkIntervalMs = 10;
    ollama.chatScript = (req) => {
      const last = req.messages!.at(-1)!.content ?? '';
      if (last.startsWith('long')) return { content: Array.from({ length: 2000 }, (_, i) => `word${i} `) };
      if (last.startsWith('fail') && req.model === B)
        return { content: ['Partly '], error: { afterChunks: 1, message: 'model runner crashed', status: 500 } };
      // Blind: the answers do not give their model away.
      if (last.startsWith('Which')) return { content: tokens('An answer that names no model.') };
      return { content: tokens(`**${req.model}** answers "${last}": rainbows are light split by raindrops.`) };
    };
    app = await startWebApp({ env: { OLLAMA_HOST: ollama.url }, dataDir: data.path });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    errors = watchErrors(page);
    await page.goto(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
    data.remove();
  });

  const panes = () => page.getByTestId('compare-pane');
  const send = async (prompt: string) => {
    await page.getByTestId('compare-prompt').fill(prompt);
    await page.getByTestId('compare-prompt').press('Enter');
  };
  /** The run ended (Compare is offered again) and every pane says it is done. */
  const allDone = async () => {
    await page.getByTestId('compare-send').waitFor();
    await panes().first().waitFor();
    await page.locator('[data-testid="compare-pane"]:not([data-state="done"])').waitFor({ state: 'detached' });
  };

  it('two models, one prompt: both answers and both speeds, with the plan said first', async () => {
    await page.getByTestId('nav-compare').click();
    const editors = page.getByTestId('pane-editor');
    await editors.nth(0).getByLabel('Model', { exact: true }).selectOption(A);
    await editors.nth(1).getByLabel('Model', { exact: true }).selectOption(B);
    await expect.poll(() => page.getByTestId('compare-plan').textContent()).toMatch(/Run together|One after another/);
    await send('Why is the sky blue?');
    await page.getByTestId('compare-run').waitFor();
    await expect.poll(() => panes().count()).toBe(2);
    await allDone();
    for (const [i, model] of [A, B].entries()) {
      const p = panes().nth(i);
      expect(await p.getByTestId('pane-label').textContent()).toContain(model);
      await expect.poll(() => p.locator('.markdown strong').first().textContent()).toBe(model);
      expect(await p.getByTestId('pane-figures').textContent()).toMatch(/first token .* [\d.]+ tok\/s · \d+ tokens/);
    }
    await screenshot(page, 'compare-1400-light');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'compare-1400-dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'compare-1024-dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await screenshot(page, 'compare-1024-light');
    // Side by side at 1024: the second pane starts to the right of the first, on the same row.
    const [a, b] = [await panes().nth(0).boundingBox(), await panes().nth(1).boundingBox()];
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    expect(Math.abs(b!.y - a!.y)).toBeLessThan(2);
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('one Stop stops every pane and keeps the text', async () => {
    ollama.chunkIntervalMs = 20;
    await send('long answer please');
    for (const i of [0, 1]) await panes().nth(i).getByText('word3 ').waitFor();
    await page.getByTestId('compare-stop').click();
    await allDone();
    ollama.chunkIntervalMs = 10;
    for (const i of [0, 1]) {
      const p = panes().nth(i);
      expect(await p.getByTestId('pane-stopped').count()).toBe(1);
      expect(await p.locator('.markdown').textContent()).toContain('word3');
    }
    await page.getByTestId('compare-send').waitFor();
  });

  it('an error in one pane shows there once; the other pane answers', async () => {
    await send('fail for one of you');
    await allDone();
    const [ok, bad] = [panes().nth(0), panes().nth(1)];
    expect(await bad.getByTestId('pane-error').textContent()).toContain('model runner crashed');
    expect(await page.getByText('model runner crashed').count()).toBe(1);
    expect(await ok.getByTestId('pane-error').count()).toBe(0);
    expect(await ok.getByTestId('pane-figures').textContent()).toMatch(/tok\/s/);
  });

  it('repeats give medians; export, save set, reopen from Recent; Continue opens the conversation', async () => {
    await page.getByRole('spinbutton', { name: 'Repeat' }).fill('3');
    await send('Tell me about rainbows');
    await allDone();
    const first = panes().nth(0);
    expect(await first.getByTestId('pane-figures').textContent()).toMatch(/tok\/s · \d+ tokens · median of 3$/);
    expect(await first.getByText('answer 3 of 3').count()).toBe(1);
    await page.getByRole('spinbutton', { name: 'Repeat' }).fill('1');

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export .md' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/\.md$/);
    await page.getByLabel('Name for this set').fill('Two small models');
    await page.getByLabel('Name for this set').press('Enter');
    await page.getByTestId('saved-sets').getByRole('button', { name: 'Open Two small models' }).waitFor();

    await page.getByTestId('recent-comparisons').getByRole('button', { name: 'Why is the sky blue?' }).click();
    await expect.poll(() => page.getByTestId('compare-run').textContent()).toContain('Prompt: Why is the sky blue?');
    await page.getByTestId('recent-comparisons').getByRole('button', { name: 'Tell me about rainbows' }).click();
    await expect.poll(() => page.getByTestId('compare-run').textContent()).toContain('Prompt: Tell me about rainbows');
    await panes()
      .nth(0)
      .getByRole('button', { name: /Continue in chat/ })
      .click();
    await page.getByTestId('thread').waitFor();
    expect(await page.getByTestId('msg-user').first().textContent()).toContain('Tell me about rainbows');
    await expect.poll(() => page.getByTestId('msg-assistant').first().textContent()).toContain(`${A} answers`);
  });

  it('the picks are kept; blind vote reveals the names and counts on the scoreboard, kept across a restart', async () => {
    await page.getByTestId('nav-compare').click();
    const editors = page.getByTestId('pane-editor');
    expect(await editors.nth(0).getByLabel('Model', { exact: true }).inputValue()).toBe(A);
    expect(await editors.nth(1).getByLabel('Model', { exact: true }).inputValue()).toBe(B);
    const plan = page.getByTestId('compare-plan');
    await expect.poll(() => plan.textContent()).toContain('fit in memory together');
    await page.getByRole('switch', { name: /Blind/ }).check();
    // Until the vote the plan says how the panes run, not which model fits where (issue #40 item 11).
    await expect
      .poll(() => plan.textContent())
      .toBe('Run together: The panes answer together; why is shown after your vote.');
    await send('Which is better?');
    await allDone();
    const labels = await page.getByTestId('pane-label').allTextContents();
    expect(labels.sort()).toEqual(['Model A', 'Model B']);
    expect(await page.getByTestId('compare-run').textContent()).not.toContain(A);
    expect(await plan.textContent()).not.toMatch(/GB|fit|llama|qwen/);
    expect((await page.getByTestId('pane-figures').allTextContents()).join(' ')).not.toMatch(/load/);
    expect(await checkBothThemes(page, 'blind comparison before the vote')).toEqual([]);
    await screenshot(page, 'compare-blind');
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByTestId('blind-vote').scrollIntoViewIfNeeded();
    await screenshot(page, 'compare-blind-1024');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByTestId('blind-vote').getByRole('button', { name: 'A is better' }).click();
    await page.getByTestId('blind-vote').waitFor({ state: 'detached' });
    // The vote says it all: the plan's reason with it, and above.
    expect(await page.getByTestId('compare-voted').textContent()).toMatch(/fit in memory together \(.* GB/);
    await expect.poll(() => plan.textContent()).toContain('fit in memory together');
    const revealed = await page.getByTestId('pane-label').allTextContents();
    expect(revealed.join(' ')).toContain(A);
    expect(revealed.join(' ')).toContain(B);
    const winner = revealed[0].includes(A) ? A : B;
    const board = page.getByTestId('scoreboard');
    await expect.poll(() => board.locator('tbody tr').count()).toBe(2);
    const row = board.locator('tbody tr').filter({ hasText: winner });
    expect(await row.locator('td').nth(2).textContent()).toBe('1');
    await screenshot(page, 'compare-scoreboard');

    await app.stop();
    app = await startWebApp({ env: { OLLAMA_HOST: ollama.url }, dataDir: data.path });
    await page.goto(app.url);
    await page.getByTestId('nav-compare').click();
    const after = page.getByTestId('scoreboard').locator('tbody tr').filter({ hasText: winner });
    await after.waitFor();
    expect(await after.locator('td').nth(2).textContent()).toBe('1');
    expect(errors.filter((e) => !/stale|401|Failed to fetch/.test(e))).toEqual([]);
  });
});
