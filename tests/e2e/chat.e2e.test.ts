import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { syntheticExport } from '../fixtures/conversation';
import { startRouterFixture, type RouterFixture } from '../fixtures/router';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

const ANSWER =
  'Here is **bold** text and a list:\n\n- one\n- two\n\n```js\nconst answer = 42;\nconsole.log(answer);\n```\n\nDone.';

describe('chat in Chromium against the Ollama fixture', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let n = 0;
  let longOnce = true;
  /** The stopped reply's text as the page showed it at Stop. */
  let stoppedText = '';

  beforeAll(async () => {
    ollama = await startOllamaFixture({
      models: [fixtureModel('llama3.2'), fixtureModel('qwen3:8b', { family: 'qwen3' })],
    });
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools', 'thinking'] });
    ollama.chunkIntervalMs = 15;
    ollama.chatScript = (req) => {
      const last = req.messages!.at(-1)!.content ?? '';
      if (last.startsWith('fail with a 500'))
        return { content: [], error: { afterChunks: 0, status: 500, message: 'llama runner process has terminated' } };
      if (last.startsWith('long') && longOnce && !(longOnce = false))
        return { content: Array.from({ length: 400 }, (_, i) => `word${i} `) };
      n++;
      return {
        thinking: req.think ? ['Let me think ', 'about it.'] : [],
        content: tokens(`Answer ${n} to "${last}". ${ANSWER}`),
      };
    };
    ({ app, browser, page, errors } = await openApp({ env: { OLLAMA_HOST: ollama.url } }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
  });

  const assistant = () => page.getByTestId('msg-assistant');

  it('creates a conversation, chooses a model, sends and watches the reply stream in as Markdown', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByText('No conversations yet').first().waitFor();
    await screenshot(page, 'chat-empty');
    await page.getByTestId('new-chat').click();
    // The model picker is in the header, nothing to open first.
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    await page.getByTestId('composer').fill('Hello there! Can you explain how rainbows form?');
    await page.getByTestId('composer').press('Enter');
    await page.getByTestId('msg-streaming').waitFor();
    await assistant().and(page.locator('[data-status="complete"]')).waitFor();
    const reply = assistant().last();
    await expect.poll(() => reply.locator('strong').first().textContent()).toBe('bold');
    await expect.poll(() => reply.locator('.code-block code').textContent()).toContain('const answer = 42;');
    expect(await reply.locator('.code-block .hljs-keyword').count()).toBeGreaterThan(0);
    expect(await reply.getByRole('button', { name: 'Copy' }).count()).toBeGreaterThan(0);
    await expect.poll(() => reply.getByTestId('msg-figures').textContent()).toMatch(/tokens · [\d.]+ tok\/s/);
    // Titled by a summary of the first message: no greeting, no "can you".
    await expect.poll(() => page.getByTestId('thread-title').textContent()).toBe('Explain how rainbows form');
    await screenshot(page, 'chat-reply');
  });

  it('stop keeps the partial answer, marked stopped', async () => {
    // Watch the earlier reply's DOM: streaming must not re-render the history.
    await page.evaluate(() => {
      const w = window as unknown as { historyMutations: number };
      w.historyMutations = 0;
      const body = document.querySelector('[data-testid="msg-assistant"] .msg-body')!;
      new MutationObserver((records) => (w.historyMutations += records.length)).observe(body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    await page.getByTestId('composer').fill('long story please');
    await page.getByTestId('send').click();
    const streaming = page.getByTestId('msg-streaming');
    await streaming.waitFor();
    await expect
      .poll(async () => (await streaming.textContent())?.length ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(60);
    expect(await page.evaluate(() => (window as unknown as { historyMutations: number }).historyMutations)).toBe(0);
    await screenshot(page, 'chat-streaming');
    await page.getByTestId('stop').click();
    const stopped = assistant().and(page.locator('[data-status="stopped"]'));
    await stopped.waitFor();
    const text = (await stopped.locator('.msg-body').textContent()) ?? '';
    expect(text).toMatch(/^word0 word1 word2/);
    expect(text).not.toContain('word399');
    stoppedText = text;
    await stopped.getByTestId('msg-stopped').waitFor();
    await screenshot(page, 'chat-stopped');
  });

  it('regenerate adds a version of the last reply; ‹ › switches between them', async () => {
    const before = await assistant().count();
    await assistant().last().hover();
    await page.getByRole('button', { name: 'Regenerate' }).click();
    // Between the cut and the new reply, the last reply on screen is an older, complete one: wait for the new one.
    await expect
      .poll(
        async () =>
          (await assistant().count()) === before &&
          (await assistant().last().getAttribute('data-status')) === 'complete' &&
          ((await assistant().last().textContent()) ?? '').includes('to "long story please"'),
        { timeout: 15_000 },
      )
      .toBe(true);
    // The earlier (stopped) reply was kept as version 1 of 2.
    const last = assistant().last();
    await last.getByLabel('version 2 of 2').waitFor();
    await last.getByRole('button', { name: 'Previous version' }).click();
    await assistant().last().getByLabel('version 1 of 2').waitFor();
    expect(await assistant().last().getAttribute('data-status')).toBe('stopped');
    // Read back from main: what was kept is what the page showed at Stop, not a token more.
    expect(await assistant().last().locator('.msg-body').textContent()).toBe(stoppedText);
    await screenshot(page, 'chat-versions');
    await assistant().last().getByRole('button', { name: 'Next version' }).click();
    await assistant().last().getByLabel('version 2 of 2').waitFor();
    expect(await assistant().last().getAttribute('data-status')).toBe('complete');
  });

  it('edit and regenerate answers the edited message (the old one stays a version); save makes an unanswered version', async () => {
    const firstUser = page.getByTestId('msg-user').first();
    await firstUser.hover();
    await firstUser.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit message').fill('Hello again, edited');
    await page.getByRole('button', { name: 'Save and regenerate' }).click();
    await expect.poll(() => page.getByTestId('msg-user').count()).toBe(1);
    await expect.poll(() => assistant().last().getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(await assistant().last().textContent()).toContain('to "Hello again, edited"');
    await page
      .getByTestId('msg-user')
      .first()
      .getByLabel(/version 2 of \d/)
      .waitFor();

    await page.getByTestId('msg-user').first().hover();
    await page.getByTestId('msg-user').first().getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit message').fill('Saved without a new answer');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('msg-user').getByText('Saved without a new answer').waitFor();
    // A new version, the third: not answered yet, and no reply sits under text it did not answer.
    const question = page.getByTestId('msg-user').first();
    await question.getByLabel('version 3 of 3').waitFor();
    await question.getByTestId('msg-no-reply').waitFor();
    expect(await assistant().count()).toBe(0);
    await screenshot(page, 'chat-saved-version');
    // Version 2/3 still has the reply it got.
    await question.getByRole('button', { name: 'Previous version' }).click();
    await page.getByTestId('msg-user').first().getByLabel('version 2 of 3').waitFor();
    expect(await page.getByTestId('msg-user').first().textContent()).toContain('Hello again, edited');
    expect(await assistant().last().textContent()).toContain('to "Hello again, edited"');
    // Back on the saved one, a reply is one click away.
    await page.getByTestId('msg-user').first().getByRole('button', { name: 'Next version' }).click();
    await page.getByTestId('msg-user').first().getByLabel('version 3 of 3').waitFor();
    await page.getByRole('button', { name: 'Get a reply' }).click();
    await expect.poll(() => assistant().last().getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(await assistant().last().textContent()).toContain('to "Saved without a new answer"');
  });

  it('a reload finds the conversation intact', async () => {
    const rows = () => page.locator('.msg-row').allInnerTexts();
    const before = await rows();
    await page.reload();
    await page.getByTestId('msg-user').getByText('Saved without a new answer').waitFor();
    await assistant().last().locator('.code-block').waitFor();
    expect(await rows()).toEqual(before);
    expect(await page.getByTestId('conv-item').count()).toBe(1);
  });

  it('an empty "New chat" left without a word (for another conversation, another page) is not kept; one with a draft is', async () => {
    const items = page.getByTestId('conv-item');
    const titles = () => page.locator('.conv-title').allTextContents();
    const newChat = async () => {
      await page.getByTestId('new-chat').click();
      await expect.poll(() => items.count()).toBe(2);
      await expect.poll(() => page.getByTestId('thread-title').textContent()).toBe('New chat');
    };
    await newChat();
    await page.locator('.conv-item:not(.active) .conv-open').click();
    await expect.poll(titles).toEqual(['Explain how rainbows form']);
    await newChat();
    await page.getByTestId('nav-catalogue').click();
    await page.getByTestId('nav-chat').click();
    await expect.poll(titles).toEqual(['Explain how rainbows form']);
    // Something typed and not sent is writing: it stays, and goes once the draft is cleared and the chat left.
    await newChat();
    await page.getByTestId('composer').fill('Half a thought');
    await page.locator('.conv-item:not(.active) .conv-open').click();
    await page.getByTestId('msg-user').first().waitFor();
    expect(await titles()).toEqual(['New chat', 'Explain how rainbows form']);
    await page.locator('.conv-open', { hasText: 'New chat' }).click();
    await page.getByTestId('composer').fill('');
    await page.locator('.conv-item:not(.active) .conv-open').click();
    await expect.poll(titles).toEqual(['Explain how rainbows form']);
  });

  it('"Open as code" (in the header\'s Export menu, by keyboard) shows the conversation as a runnable snippet in Monaco', async () => {
    // A menu button: ↓ opens it on its first item, Escape closes it onto the button, Enter runs an item.
    const menu = page.getByRole('button', { name: 'Export', exact: true });
    expect(await menu.getAttribute('aria-haspopup')).toBe('menu');
    await menu.focus();
    await page.keyboard.press('ArrowDown');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const items = page.getByRole('menu', { name: 'Export' }).getByRole('menuitem');
    expect(await items.allInnerTexts()).toEqual(['Open as code', 'Export .md', 'Export .json']);
    await expect.poll(() => items.first().evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => items.last().evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const pane = page.getByTestId('code-pane');
    await pane.getByRole('tab').first().waitFor();
    expect(await pane.getByRole('tab').allInnerTexts()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Python/),
        expect.stringMatching(/^JavaScript/),
        expect.stringMatching(/^curl/),
      ]),
    );
    // Monaco renders spaces as non-breaking ones.
    const code = async () => (await pane.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(code, { timeout: 20_000 }).toContain('llama3.2');
    expect(await code()).toContain('"content": "Saved without a new answer"');
    await screenshot(page, 'chat-code');
    await pane.getByRole('button', { name: 'Close code' }).click();
  });

  it('thinking is shown apart from the answer; dark theme; no page errors', async () => {
    await page.getByTestId('new-chat').click();
    // The picker is always in the header: wait for the new chat's, not the one still shown.
    await page.getByTestId('thread-title').getByText('New chat', { exact: true }).waitFor();
    await page.getByTestId('model-select').selectOption('qwen3:8b');
    await page.getByLabel('Think').click();
    await expect.poll(() => page.getByLabel('Think').isChecked()).toBe(true);
    await page.getByTestId('composer').fill('Why is the sky blue?');
    await page.getByTestId('composer').press('Enter');
    const reply = assistant().and(page.locator('[data-status="complete"]'));
    await reply.waitFor();
    await reply.locator('details.msg-thinking summary').click();
    expect(await reply.locator('details.msg-thinking pre').textContent()).toBe('Let me think about it.');
    expect(await reply.locator('.msg-body').textContent()).not.toContain('Let me think');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await screenshot(page, 'chat-dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    expect(await page.getByTestId('conv-item').count()).toBe(2);
    expect(errors).toEqual([]);
  });
  it('the header holds engine, model, Tools and Think in two rows at 1400×900 and 1024×700, light and dark; More settings and the code pane push the messages aside, the last one and the composer stay in view; #/chat reopens the last conversation', async () => {
    const items = page.getByTestId('conv-item');
    // The older conversation, open last: the chat page reopens it, not the newest.
    await items.filter({ hasText: 'Explain how rainbows form' }).click();
    await page.getByTestId('thread-title').getByText('Explain how rainbows form').waitFor();
    await page.getByTestId('nav-catalogue').click();
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('thread-title').getByText('Explain how rainbows form').waitFor();
    expect(await page.evaluate(() => location.hash)).toMatch(/^#\/chat\/c_/);
    expect(await page.getByText('Pick a conversation').count()).toBe(0);

    const head = page.getByTestId('thread').locator('header');
    const more = head.getByRole('button', { name: 'More settings' });
    const shoot = async (name: string) => {
      for (const theme of ['light', 'dark']) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        await screenshot(page, `${name}-${theme}`);
      }
      await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    };
    for (const [width, height] of [
      [1400, 900],
      [1024, 700],
    ]) {
      await page.setViewportSize({ width, height });
      // In view without opening anything; nothing spills out, the title keeps room, a long select ends in "…".
      for (const control of [
        head.getByRole('radiogroup', { name: 'Backend' }),
        head.getByTestId('model-select'),
        head.getByTestId('tool-picker'),
        head.getByLabel('Think'),
        more,
      ])
        expect(await control.isVisible()).toBe(true);
      expect(await head.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      // Two rows: the title row (title, More settings, Export) and the controls' row, each control on one of them.
      const rows = await head.evaluate((el) => {
        const tops = [...el.querySelectorAll('.thread-head-top > *, .conv-settings-row > *')].map((c) =>
          Math.round(c.getBoundingClientRect().top),
        );
        return new Set(tops.map((t) => tops.find((u) => Math.abs(u - t) < 16))).size;
      });
      expect(rows).toBeLessThanOrEqual(2);
      expect((await page.getByTestId('thread-title').boundingBox())!.width).toBeGreaterThan(200);
      expect(await head.getByTestId('model-select').evaluate((el) => getComputedStyle(el).textOverflow)).toBe(
        'ellipsis',
      );
      await shoot(`chat-header-${width}`);
    }

    // At 1024×700 with both panels open, they take their own room: the last message (a full line of it at least)
    // and the composer stay in view, beside and under them, not under a panel.
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('System prompt').waitFor();
    await head.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Open as code' }).click();
    await page.getByTestId('code-pane').locator('.view-lines').waitFor({ timeout: 20_000 });
    const box = async (l: import('playwright-core').Locator) => (await l.boundingBox())!;
    const list = await box(page.getByTestId('message-list'));
    const [panel, code, composer] = await Promise.all(
      [page.getByTestId('more-settings'), page.getByTestId('code-pane'), page.getByTestId('composer')].map(box),
    );
    expect(list.y).toBeGreaterThanOrEqual(panel.y + panel.height - 1);
    expect(list.x + list.width).toBeLessThanOrEqual(code.x + 1);
    expect(composer.y).toBeGreaterThanOrEqual(list.y + list.height - 1);
    expect(composer.y + composer.height).toBeLessThanOrEqual(700);
    // The last line of the last reply's text lies wholly inside the list's box.
    const line = await page
      .getByTestId('msg-assistant')
      .last()
      .locator('.msg-body')
      .evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const last = [...range.getClientRects()].filter((x) => x.height > 0).at(-1)!;
        return { top: last.top, bottom: last.bottom, height: last.height };
      });
    expect(line.height).toBeGreaterThan(10);
    expect(line.top).toBeGreaterThanOrEqual(list.y);
    expect(line.bottom).toBeLessThanOrEqual(list.y + list.height);
    await shoot('chat-header-1024-open');
    // Escape folds More settings back onto its button; then the drawer's Close is in reach.
    await page.getByLabel('temperature').focus();
    await page.keyboard.press('Escape');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'Close code' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    // Back to the newest, as the sidebar test expects.
    await items.filter({ hasText: 'Why is the sky blue?' }).click();
    await page.getByTestId('thread-title').getByText('Why is the sky blue?').waitFor();
    expect(errors).toEqual([]);
  });

  it('the engine picker is one Tab stop; the arrow keys move between engines and choose one', async () => {
    const group = page.getByTestId('thread').getByRole('radiogroup', { name: 'Backend' });
    const radios = group.getByRole('radio');
    const checked = group.getByRole('radio', { checked: true });
    const viewport = page.viewportSize()!;
    const labels = await radios.allTextContents();
    expect(labels.length).toBeGreaterThan(1);
    expect(await checked.textContent()).toBe('Ollama');
    // One Tab stop: the checked engine; Tab from it leaves the group.
    expect(await radios.evaluateAll((rs) => rs.filter((r) => (r as HTMLElement).tabIndex === 0).length)).toBe(1);
    await checked.focus();
    await page.keyboard.press('Tab');
    expect(await group.evaluate((g) => g.contains(document.activeElement))).toBe(false);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Ollama');
    // → chooses the next engine and moves focus to it; ← comes back.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => checked.textContent()).toBe(labels[1]);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(labels[1]);
    for (const width of [1400, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await screenshot(page, `chat-engine-picker-${width}`);
    }
    expect(await checkBothThemes(page, 'chat engine picker')).toEqual([]);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => checked.textContent()).toBe('Ollama');
    // Back on Ollama, with the model the later tests chat with.
    await page.getByTestId('model-select').selectOption('llama3.2:latest');
    await page.setViewportSize(viewport);
  });

  it('sidebar: rename, pin, search, export → import, a refused import, delete with undo', async () => {
    const items = page.getByTestId('conv-item');
    const hello = items.filter({ hasText: 'Explain how rainbows form' });
    await hello.hover();
    await hello.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Conversation title').fill('Greetings');
    await page.getByLabel('Conversation title').press('Enter');
    await items.filter({ hasText: 'Greetings' }).waitFor();
    await items.filter({ hasText: 'Greetings' }).hover();
    await items.filter({ hasText: 'Greetings' }).getByRole('button', { name: 'Pin' }).click();
    await expect.poll(() => items.first().textContent()).toContain('Greetings');

    // One box searches titles and message text; matched words are highlighted.
    const results = page.getByTestId('search-result');
    await page.getByLabel('Search conversations').fill('sky');
    await expect.poll(() => results.count()).toBe(1);
    expect(await results.first().locator('.conv-title mark').allTextContents()).toEqual(['sky']);
    await page.getByLabel('Search conversations').fill('think');
    await expect.poll(() => results.count()).toBe(0);
    await page.getByLabel('Search conversations').fill('bold');
    const greeting = results.filter({ hasText: 'Greetings' });
    await greeting.waitFor();
    expect(await greeting.getByTestId('search-hit').first().locator('mark').textContent()).toBe('bold');
    await page.getByLabel('Search conversations').press('Escape');
    await expect.poll(() => items.count()).toBe(2);

    // Export the open conversation (the sky one) as JSON, then import it back: it is recognised, and on the
    // user's word a third, identical conversation.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('button', { name: 'Export', exact: true })
        .click()
        .then(() => page.getByRole('menuitem', { name: 'Export .json' }).click()),
    ]);
    const text = readFileSync((await download.path())!, 'utf8');
    const exported = JSON.parse(text) as { version: number; meta: { title: string }; messages: unknown[] };
    expect(exported).toMatchObject({ version: 2, meta: { title: 'Why is the sky blue?' } });
    expect(exported.messages).toHaveLength(2);
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"nope"}') });
    const importError = page.getByRole('alert').filter({ hasText: 'not a HubDesk conversation export' });
    await importError.waitFor();
    expect(await items.count()).toBe(2);
    // A stale import error goes: dismissed, or once another conversation opens (and after an import that works).
    await importError.getByRole('button', { name: 'Dismiss' }).click();
    expect(await importError.count()).toBe(0);
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"nope"}') });
    await importError.waitFor();
    await items.filter({ hasText: 'Greetings' }).click();
    await page.getByTestId('thread-title').getByText('Greetings').waitFor();
    expect(await importError.count()).toBe(0);
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"nope"}') });
    await importError.waitFor();
    await items.filter({ hasText: 'Why is the sky blue?' }).click();
    await page.getByTestId('thread-title').getByText('Why is the sky blue?').waitFor();
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'chat.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    const again = page.getByRole('group', { name: 'Already imported' });
    await again
      .getByText('This conversation is already here as “Why is the sky blue?”. Import again as a copy?')
      .waitFor();
    expect(await items.count()).toBe(2);
    await again.getByRole('button', { name: 'Import a copy' }).click();
    await expect.poll(() => items.count()).toBe(3);
    await page.getByTestId('msg-user').getByText('Why is the sky blue?').waitFor();
    await screenshot(page, 'chat-sidebar');

    const greetings = items.filter({ hasText: 'Greetings' });
    await greetings.hover();
    await greetings.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => items.count()).toBe(2);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => items.count()).toBe(3);
    await items.filter({ hasText: 'Greetings' }).click();
    await page.getByTestId('msg-user').getByText('Saved without a new answer').waitFor();
    // The refused import is an answer (the message above), not a failed request: the console stays clean.
    expect(errors).toEqual([]);
  });
  it('a 10,000-message conversation opens at its end; scrolling to the top loads earlier messages in place', async () => {
    const big = syntheticExport(10_000, 'Ten thousand');
    await page
      .getByTestId('import-file')
      .setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(big)) });
    await page.getByTestId('thread-title').getByText('Ten thousand').waitFor();
    // Opened at the end, virtualized: the last message is there, the first is not, and few rows exist.
    await page.getByText('Reply 9999', { exact: false }).waitFor();
    expect(await page.locator('.msg-row').count()).toBeLessThan(60);
    expect(await page.getByText('Question 0', { exact: true }).count()).toBe(0);
    // The top of the window (the last 100 messages): earlier ones come in above, and the row read stays put.
    const list = page.getByTestId('message-list');
    const row = page.locator('.msg-row', { hasText: 'Question 9900' });
    const top = (await list.boundingBox())!.y;
    await list.evaluate((el) => (el.scrollTop = 0));
    await expect.poll(() => row.getAttribute('data-index')).toBe('100');
    // It was the first row, at the top of the list; it still is, with the earlier messages above it.
    expect(await row.isVisible()).toBe(true);
    expect(Math.abs((await row.boundingBox())!.y - top)).toBeLessThan(48);
    await page.locator('.msg-row', { hasText: 'Question 9898' }).waitFor({ state: 'attached' });
    // A page that fails: the reason and a Retry, and scrolling does not hammer the store meanwhile.
    let failed = 0;
    await page.route('**/api/call/chat.older', (route) => {
      failed++;
      return route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ ok: false, error: { code: 'internal', message: 'The chat database is busy.' } }),
      });
    });
    await list.evaluate((el) => (el.scrollTop = 0));
    const pageError = page.getByTestId('page-error');
    await pageError.getByText('Earlier messages could not be loaded: The chat database is busy.').waitFor();
    await list.evaluate((el) => (el.scrollTop = 10));
    await list.evaluate((el) => (el.scrollTop = 0));
    expect(failed).toBe(1);
    await screenshot(page, 'chat-10k-page-error');
    await page.unroute('**/api/call/chat.older');
    await pageError.getByRole('button', { name: 'Retry' }).click();
    // The row at the top when it failed (the first of the page before) stays there, the next page above it.
    const top9800 = page.locator('.msg-row', { hasText: 'Question 9800' });
    await expect.poll(() => top9800.getAttribute('data-index')).toBe('100');
    expect(await top9800.isVisible()).toBe(true);
    expect(await pageError.count()).toBe(0);
    // On to the first message, a page each time the top is reached.
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => (el.scrollTop = 0));
          return page.getByText('Question 0', { exact: true }).count();
        },
        { timeout: 120_000, interval: 50 },
      )
      .toBe(1);
    expect(await page.getByTestId('page-loading').count()).toBe(0);
    expect(await page.locator('.msg-row').count()).toBeLessThan(60);
    // Imported replies have no model or figures: nothing but the rows' padding between one message and the next
    // (an empty meta line under each reply once left a 24 px gap).
    const gaps = await list.evaluate((el) => {
      const boxes = [...el.querySelectorAll('.msg-bubble')].map((b) => b.getBoundingClientRect());
      return boxes.slice(1).map((b, i) => Math.round(b.top - boxes[i].bottom));
    });
    expect(gaps.length).toBeGreaterThan(4);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(16);
    await screenshot(page, 'chat-10k');
  });

  it('search finds a message deep inside the 10,000-message conversation and opens it scrolled to it', async () => {
    // A fresh start: the conversation opens with its last 100 messages, far from the hit.
    await page.reload();
    await page.getByText('Reply 9999', { exact: false }).waitFor();
    expect(await page.getByText('Question 5000', { exact: true }).count()).toBe(0);
    await page.getByLabel('Search conversations').fill('"Question 5000"');
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor();
    expect(await hit.locator('mark').allTextContents()).toEqual(['Question', '5000']);
    await hit.click();
    const focused = page.locator('.msg-row.msg-focus');
    await focused.getByText('Question 5000', { exact: true }).waitFor();
    expect(await focused.isVisible()).toBe(true);
    expect(await page.locator('.msg-row').count()).toBeLessThan(60);
    await screenshot(page, 'chat-search');
    // Scrolling down pages in what follows the hit; "Latest" shows the end again.
    const list = page.getByTestId('message-list');
    await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.locator('.msg-row', { hasText: 'Question 5052' }).waitFor({ state: 'attached' });
    await page.getByTestId('jump-latest').click();
    await page.getByText('Reply 9999', { exact: false }).waitFor();
    expect(await page.getByText('Question 5000', { exact: true }).count()).toBe(0);
    await page.getByLabel('Search conversations').fill('');
  });

  it('a model that is not pulled: the error says so and offers "Pull <model>"', async () => {
    await page.evaluate(() => (location.hash = '#/chat/new/ollama/qwen3%3A0.6b'));
    await page.getByTestId('thread-title').waitFor();
    await page.getByTestId('composer').fill('hi');
    await page.getByTestId('composer').press('Enter');
    const alert = page.getByTestId('reply-error');
    await alert.getByText('qwen3:0.6b is not on your Ollama server. Pull it, then try again.').waitFor();
    await screenshot(page, 'chat-error-pull');
    // Said once, in the failed reply: no banner above the composer repeats it.
    expect(await page.getByTestId('reply-error').count()).toBe(1);
    expect(await page.getByTestId('msg-assistant').getByTestId('reply-error').count()).toBe(1);
    await alert.getByRole('button', { name: 'Pull qwen3:0.6b' }).click();
    await page.getByTestId('job').filter({ hasText: 'qwen3:0.6b' }).first().waitFor();
    await page.evaluate(() => (location.hash = '#/chat'));
  });

  it("a 500 from Ollama: the reply says why once, in the message, with Ollama's own words", async () => {
    await page.evaluate(() => (location.hash = '#/chat/new/ollama/llama3.2%3Alatest'));
    await page.getByTestId('thread-title').getByText('New chat', { exact: true }).waitFor();
    await page.getByTestId('composer').fill('fail with a 500 please');
    await page.getByTestId('composer').press('Enter');
    const failed = page.getByTestId('msg-assistant').and(page.locator('[data-status="error"]'));
    await failed.getByTestId('reply-error').getByText('llama runner process has terminated').waitFor();
    expect(await page.getByTestId('reply-error').count()).toBe(1);
    expect(await page.getByText('llama runner process has terminated').count()).toBe(1);
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'chat-error-once-1024');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(errors).toEqual([]);
  });

  it('"New chat" leaves the open conversation at once: a question typed while main starts the new one goes to it; a failed start says why and retries', async () => {
    // The conversation open: the one the 500 was in.
    await page.getByTestId('msg-user').first().waitFor();
    const before = await page.getByTestId('msg-user').allTextContents();
    const title = (await page.getByTestId('thread-title').textContent()) ?? '';
    // Main is slow to make the conversation: the page does not keep the old one's composer meanwhile.
    await page.route('**/api/call/chat.create', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByTestId('new-chat').click();
    // The conversation left goes at once (the next address's task), while main still makes the new one.
    await page.getByRole('status').filter({ hasText: 'Starting a new chat…' }).waitFor();
    await page.getByTestId('composer').fill('Typed right after New chat');
    await page.getByTestId('composer').press('Enter');
    await assistant().and(page.locator('[data-status="complete"]')).waitFor();
    const sent = await page.getByTestId('msg-user').allTextContents();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('Typed right after New chat');
    await page.unroute('**/api/call/chat.create');
    // Back is the conversation left, not a second new chat.
    await page.goBack();
    await expect.poll(() => page.getByTestId('msg-user').allTextContents()).toEqual(before);
    expect(await page.getByTestId('thread-title').textContent()).toBe(title);

    // Main cannot make it: the page says so, with Try again, never a spinner forever.
    let refuse = true;
    await page.route('**/api/call/chat.create', (route) =>
      refuse
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'unavailable', message: 'The chat store is busy.' } }),
          })
        : route.continue(),
    );
    await page.getByTestId('new-chat').click();
    const failed = page.getByRole('alert').filter({ hasText: 'The chat could not be started' });
    await failed.getByText('The chat store is busy.').waitFor();
    await screenshot(page, 'chat-new-failed');
    refuse = false;
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('thread-title').getByText('New chat', { exact: true }).waitFor();
    expect(await page.getByTestId('msg-user').count()).toBe(0);
    await page.unroute('**/api/call/chat.create');
  });
});

describe('provider chat in Chromium against the router fixture', () => {
  let router: RouterFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    router = await startRouterFixture();
    ({ app, browser, page } = await openApp({
      // The router address comes from outside the page: only then is the token bound to it.
      env: { HF_TOKEN: 'hf_e2eRouterToken5678', OLLAMA_HOST: 'http://127.0.0.1:9', HUBDESK_ROUTER_URL: router.url },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await router?.stop();
  });

  it('streams from a hosted model; a rejected token says where to fix it and keeps the transcript', async () => {
    await page.getByTestId('nav-settings').click();
    await expect.poll(() => page.locator('#setting-routerUrl').inputValue()).toBe(router.url);
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByRole('radio', { name: 'HF router' }).click();
    await page.getByLabel('Model id').fill('meta-llama/Llama-3.1-8B-Instruct');
    await page.getByLabel('Model id').press('Tab');
    await page.getByTestId('thread').getByText('HF router · auto · meta-llama/Llama-3.1-8B-Instruct').waitFor();
    await page.getByTestId('composer').fill('hi provider');
    await page.getByTestId('composer').press('Enter');
    await page
      .getByTestId('msg-assistant')
      .and(page.locator('[data-status="complete"]'))
      .getByText('Router says: hi provider')
      .waitFor();
    expect(router.requestsTo('/v1/chat/completions')[0].headers.authorization).toBe('Bearer hf_e2eRouterToken5678');

    router.failWith(401);
    await page.getByTestId('composer').fill('this one fails');
    await page.getByTestId('composer').press('Enter');
    await page
      .getByTestId('reply-error')
      .getByText('the Hugging Face token was rejected — set it in Settings')
      .waitFor();
    await page.getByTestId('msg-assistant').and(page.locator('[data-status="error"]')).waitFor();
    await page.getByTestId('msg-user').getByText('this one fails').waitFor();
    await screenshot(page, 'chat-provider-error');
  });
});
