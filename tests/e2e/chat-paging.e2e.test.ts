import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { insertLinear } from '../../electron/main/services/chat/storage/rows';
import { createLogger } from '../../electron/main/services/log';
import { conversationMeta } from '../fixtures/conversation';
import { tempDir } from '../helpers/app';
import { openApp, screenshot, type WebApp } from './harness';

const N = 250;

/** A data dir whose chat store holds N Ollama conversations and, newest, one on the HF router (no token set). */
function seededDataDir(): { path: string; remove(): void } {
  const dir = tempDir('hubdesk-e2e-');
  const store = new ChatStore({ file: `${dir.path}/chats.sqlite` }, createLogger({}));
  const base = Date.parse('2026-06-01T00:00:00Z');
  const meta = (i: number, patch: Partial<ConversationMeta> = {}): ConversationMeta => {
    const at = new Date(base + i * 60_000).toISOString();
    return conversationMeta({
      id: `c_page${i.toString(36).padStart(4, '0')}`,
      title: `Conversation ${N - i}`,
      model: 'llama3.2:latest',
      createdAt: at,
      updatedAt: at,
      ...patch,
    });
  };
  store.db.tx(() => {
    for (let i = 0; i < N; i++) insertLinear(store.db, meta(i), []);
    insertLinear(
      store.db,
      meta(N, { title: 'Hosted model', backend: 'provider', model: 'meta-llama/Llama-3.1-8B-Instruct' }),
      [],
    );
  });
  store.close();
  return dir;
}

describe('a long conversation list and the router without a token (web mode, Chromium)', () => {
  let data: { path: string; remove(): void };
  let app: WebApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    data = seededDataDir();
    ({ app, browser, page, errors } = await openApp({ dataDir: data.path }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    data?.remove();
  });

  const items = () => page.getByTestId('conv-item');

  it('the sidebar shows the first 100 conversations and reads the rest as it scrolls, each once', async () => {
    await page.evaluate(() => (location.hash = '#/chat'));
    // The page's code and its first answer may take a while on a busy machine: wait for the row, then count.
    await items().nth(99).waitFor();
    await expect.poll(() => items().count()).toBe(100);
    await page.getByTestId('conv-list-end').waitFor();
    for (const shown of [200, N + 1]) {
      await page.locator('.conv-list').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await items()
        .nth(shown - 1)
        .waitFor();
      await expect.poll(() => items().count()).toBe(shown);
    }
    expect(await page.getByTestId('conv-list-end').count()).toBe(0);
    const titles = await page.locator('.conv-title').allTextContents();
    expect(new Set(titles).size).toBe(N + 1);
    expect(titles.slice(0, 2)).toEqual(['Hosted model', 'Conversation 1']);
    expect(titles.at(-1)).toBe(`Conversation ${N}`);
  });

  it('a router conversation without a token says so beside the composer, and Send stays off', async () => {
    await items().filter({ hasText: 'Hosted model' }).getByRole('button').first().click();
    const block = page.getByTestId('send-block');
    await block.getByText('Set a Hugging Face token in Settings → Secrets to chat with hosted models.').waitFor();
    await page.getByTestId('composer').fill('Hello?');
    expect(await page.getByTestId('send').isDisabled()).toBe(true);
    await screenshot(page, 'chat-router-no-token');
    await block.getByRole('button', { name: 'Open Settings' }).click();
    await page.getByRole('heading', { name: 'Secrets' }).waitFor();
    expect(errors).toEqual([]);
  });
});
