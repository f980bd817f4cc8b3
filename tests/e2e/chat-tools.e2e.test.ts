import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { tempDir } from '../helpers/app';
import { checkBothThemes } from './a11y';
import { openApp, screenshot, type WebApp } from './harness';

/**
 * A user turns an MCP server on for a conversation, the model calls one of its tools, the user approves the call
 * in the message, the real server (the SDK fixture over stdio) runs it, and the model answers with the result.
 */
describe('tools in chat in Chromium: approve, run, answer', () => {
  let ollama: OllamaFixture;
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const dir = tempDir('hubdesk-e2e-tools-');

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('qwen3:8b', { family: 'qwen3' })] });
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools'] });
    ollama.chunkIntervalMs = 10;
    // The model calls `add` when the user has just spoken, and answers with the tool's result after it.
    ollama.chatScript = (req) => {
      const last = req.messages!.at(-1)!;
      if (last.role === 'tool') return { content: tokens(`The tool answered ${last.content}.`) };
      return { content: tokens('Let me compute that.'), tool_calls: [{ name: 'add', arguments: { a: 2, b: 40 } }] };
    };
    writeFileSync(join(dir.path, 'mcp.json'), mcpConfigText({ calc: stdioEntry() }));
    ({ app, browser, page, errors } = await openApp({ env: { OLLAMA_HOST: ollama.url }, dataDir: dir.path }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await ollama?.stop();
    dir.remove();
  });

  const toolCard = () => page.getByTestId('msg-tool').last();
  /** Sends once the previous reply has ended (Send is back). */
  const send = async (text: string) => {
    await page.getByTestId('send').waitFor();
    await page.getByTestId('composer').fill(text);
    await page.getByTestId('composer').press('Enter');
  };

  it('turns a server on, approves the model’s call, sees the result and the answer, and finds it all after a reload', async () => {
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('new-chat').click();
    await page.getByTestId('model-select').selectOption('qwen3:8b');
    await page.getByTestId('tool-picker').click();
    const source = page.getByTestId('tool-source-calc');
    await source.getByText(/add/).waitFor();
    await source.getByRole('checkbox').check();
    await page.getByTestId('tool-picker').getByText('Tools · 1').waitFor();
    await screenshot(page, 'chat-tools-picker');
    expect(await checkBothThemes(page, 'chat: tool sources open')).toEqual([]);
    await page.getByTestId('tool-picker').click();

    await send('What is 2 + 40?');
    await toolCard().getByText('waiting for your approval').waitFor();
    expect(await toolCard().getByLabel('Arguments of add').innerText()).toBe('{\n  "a": 2,\n  "b": 40\n}');
    await screenshot(page, 'chat-tools-approval');
    expect(await checkBothThemes(page, 'chat: a tool call waiting for approval')).toEqual([]);
    await toolCard().getByRole('button', { name: 'Allow once' }).click();

    await toolCard().getByTestId('tool-result').getByText('42', { exact: true }).waitFor();
    await expect.poll(() => toolCard().getByTestId('tool-state').innerText()).toMatch(/^done in \d/);
    await page.getByTestId('msg-assistant').last().getByText('The tool answered 42.').waitFor();
    await screenshot(page, 'chat-tools-answered');
    expect(await checkBothThemes(page, 'chat: a tool result and the answer')).toEqual([]);

    await page.reload();
    await toolCard().getByTestId('tool-result').getByText('42', { exact: true }).waitFor();
    await page.getByTestId('msg-assistant').last().getByText('The tool answered 42.').waitFor();
    expect(await toolCard().getByTestId('tool-state').innerText()).toMatch(/^done in \d/);
    expect(errors).toEqual([]);
  });

  it('with the keyboard only: deny one call, then allow the tool always in this chat', async () => {
    await send('And again?');
    await toolCard().getByText('waiting for your approval').waitFor();
    await toolCard().getByRole('button', { name: 'Deny' }).focus();
    await page.keyboard.press('Enter');
    await toolCard().getByTestId('tool-error').getByText('You declined this call.').waitFor();
    await page
      .getByTestId('msg-assistant')
      .last()
      .getByText(/The tool answered The user declined/)
      .waitFor();

    await send('Once more, please.');
    await toolCard().getByText('waiting for your approval').waitFor();
    await toolCard().getByRole('button', { name: 'Always in this chat' }).focus();
    await page.keyboard.press('Enter');
    await toolCard().getByTestId('tool-result').getByText('42', { exact: true }).waitFor();
    await toolCard().getByText('allowed always here').waitFor();
    // The next call runs without asking; the settings list the tool and can forget it.
    await send('And the last time?');
    // Had it asked, the reply would wait for an answer that never comes: it ends, answered.
    const lastFour = () =>
      page
        .locator('.msg')
        .evaluateAll((els) =>
          els
            .slice(-4)
            .map(
              (e) => `${e.getAttribute('data-testid')}: ${(e as HTMLElement).innerText.replace(/\s+/g, ' ').trim()}`,
            ),
        );
    await expect
      .poll(lastFour)
      .toEqual([
        expect.stringMatching(/^msg-user: And the last time\?/),
        expect.stringMatching(/^msg-assistant: Let me compute that\./),
        expect.stringMatching(/^msg-tool: calc add done in .* · allowed always here/),
        expect.stringMatching(/^msg-assistant: The tool answered 42\./),
      ]);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('tool-picker').click();
    await page
      .getByTestId('tools-allowed')
      .getByText(/calc\/add/)
      .waitFor();
    await screenshot(page, 'chat-tools-allowed');
    expect(errors).toEqual([]);
  });
});
