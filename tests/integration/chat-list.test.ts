import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatListCursor } from '@shared/contract/chat';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { insertLinear } from '../../electron/main/services/chat/storage/rows';
import { conversationMeta } from '../fixtures/conversation';
import { startTestApp, type TestApp } from '../helpers/app';

const N = 5_000;

/** `n` conversations written straight into the store in one transaction; every 3 share an update time, 1 in 250 is pinned. */
function seed(app: TestApp, n: number): void {
  const { store } = app.services.chat;
  const base = Date.parse('2026-03-01T00:00:00Z');
  store.db.tx(() => {
    for (let i = 0; i < n; i++) {
      const at = new Date(base + Math.floor(i / 3) * 1000).toISOString();
      const meta = conversationMeta({
        id: `c_list${i.toString(36).padStart(5, '0')}`,
        title: `Conversation ${i} about something worth a title of a realistic length`,
        model: 'llama3.2:latest',
        pinned: i % 250 === 7,
        createdAt: at,
        updatedAt: at,
        messageCount: 2,
      });
      insertLinear(store.db, meta, []);
    }
  });
}

type Page = { conversations: ConversationMeta[]; nextCursor?: ChatListCursor };

/** The list's order: pinned first, then the most recently updated, then by id (all descending). */
const key = (m: ConversationMeta) => `${m.pinned ? 1 : 0} ${m.updatedAt} ${m.id}`;

describe('the conversation list is paged (5,000 conversations, real layers over HTTP)', () => {
  let app: TestApp;
  const ids = (ms: ConversationMeta[]) => ms.map((m) => m.id);
  const next = (cursor?: ChatListCursor): Promise<Page> => app.client.call('chat.list', cursor ? { cursor } : {});

  beforeAll(async () => {
    app = await startTestApp();
    seed(app, N);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the first page is 100 conversations, pinned then newest, a small part of the whole list', async () => {
    const first = await next();
    expect(first.conversations).toHaveLength(100);
    expect(first.nextCursor).toBeDefined();
    const keys = first.conversations.map(key);
    expect(keys).toEqual([...keys].sort().reverse());
    // The 20 pinned conversations lead; the rest are the newest.
    expect(first.conversations.filter((m) => m.pinned)).toHaveLength(20);
    expect(first.conversations.slice(0, 20).every((m) => m.pinned)).toBe(true);
    const whole = JSON.stringify(app.services.chat.store.list()).length;
    expect(whole).toBeGreaterThan(1_000_000);
    expect(JSON.stringify(first).length).toBeLessThan(whole / 40);
  });

  it('pages chain to the end in order, each conversation once', async () => {
    const seen: ConversationMeta[] = [];
    let page = await next();
    seen.push(...page.conversations);
    while (page.nextCursor) {
      page = await next(page.nextCursor);
      expect(page.conversations.length).toBeGreaterThan(0);
      seen.push(...page.conversations);
    }
    expect(seen).toHaveLength(N);
    expect(new Set(ids(seen)).size).toBe(N);
    expect(ids(seen)).toEqual(ids(app.services.chat.store.list()));
    expect(seen.map(key)).toEqual(seen.map(key).sort().reverse());
  });

  it('a conversation updated between pages moves to the top: later pages neither repeat nor skip another', async () => {
    const before = ids(app.services.chat.store.list());
    const p1 = await next();
    const p2 = await next(p1.nextCursor);
    const seen = [...p1.conversations, ...p2.conversations];
    // One already shown (renamed in the sidebar) and one further down (a reply written in a conversation found
    // by search): both are newer now; the caller holds what chat.update and the reply returned.
    const shownUnpinned = p1.conversations.find((m) => !m.pinned)!;
    const renamed = await app.client.call('chat.update', { id: shownUnpinned.id, patch: { title: 'Renamed' } });
    const further = await app.client.call('chat.update', { id: before[3_000], patch: { title: 'Replied to' } });
    let page = p2;
    while (page.nextCursor) {
      page = await next(page.nextCursor);
      seen.push(...page.conversations);
    }
    expect(new Set(ids(seen)).size).toBe(seen.length);
    expect(ids(seen)).not.toContain(further.id);
    expect(new Set([...ids(seen), further.id])).toEqual(new Set(before));
    // A fresh first page starts with the pinned ones, then the two just updated.
    const fresh = await next();
    expect(ids(fresh.conversations.slice(20, 22))).toEqual([further.id, renamed.id]);
  });

  it('a limit sets the page size; the last page has no cursor', async () => {
    const small = await app.client.call('chat.list', { limit: 7 });
    expect(small.conversations).toHaveLength(7);
    const all = ids(app.services.chat.store.list());
    const last = app.services.chat.store.list().at(-3)!;
    const tail = await app.client.call('chat.list', {
      cursor: { pinned: last.pinned, updatedAt: last.updatedAt, id: last.id },
    });
    expect(ids(tail.conversations)).toEqual(all.slice(-2));
    expect(tail.nextCursor).toBeUndefined();
  });
});
