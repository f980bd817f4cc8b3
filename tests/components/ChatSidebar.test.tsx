// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatListCursor } from '@shared/contract/chat';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { useChat } = await import('../../renderer/src/store/chat');
const { Sidebar } = await import('../../renderer/src/pages/chat/Sidebar');

/** IntersectionObserver as jsdom lacks it: the test says when the list's end comes into view. */
const observers: { callback: IntersectionObserverCallback; targets: Element[]; live: boolean }[] = [];
class FakeObserver {
  private readonly o: (typeof observers)[number];
  constructor(callback: IntersectionObserverCallback) {
    this.o = { callback, targets: [], live: true };
    observers.push(this.o);
  }
  observe(el: Element) {
    this.o.targets.push(el);
  }
  disconnect() {
    this.o.live = false;
  }
}
const endComesIntoView = () => {
  const o = observers.findLast((x) => x.live && x.targets.length);
  if (!o) throw new Error('the list end is not observed');
  o.callback([{ isIntersecting: true, target: o.targets[0] } as IntersectionObserverEntry], {} as never);
};

const conv = (i: number, patch: Partial<ConversationMeta> = {}): ConversationMeta =>
  conversationMeta({
    id: `c_conv${i}`,
    title: `Conversation ${i}`,
    model: 'qwen3:8b',
    createdAt: '2026-11-01T00:00:00.000Z',
    // Conversation 1 is the newest.
    updatedAt: new Date(Date.parse('2026-11-20T00:00:00.000Z') - i * 60_000).toISOString(),
    messageCount: 2,
    ...patch,
  });
const cursorOf = (m: ConversationMeta): ChatListCursor => ({ pinned: m.pinned, updatedAt: m.updatedAt, id: m.id });
const page1 = [1, 2, 3].map((i) => conv(i));
const page2 = [4, 5].map((i) => conv(i));
const titles = () => screen.queryAllByTestId('conv-item').map((li) => li.querySelector('.conv-title')?.textContent);

beforeEach(() => {
  main.reset();
  observers.length = 0;
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  useChat.setState({ list: [], listNext: undefined, listMore: undefined, listLoading: true, listError: undefined });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function firstPage() {
  render(<Sidebar />);
  void useChat.getState().loadList();
  await (await main.next('chat.list')).answer({ conversations: page1, nextCursor: cursorOf(page1[2]) });
}

describe('Chat sidebar: the conversation list, a page at a time', () => {
  it('shows the first page; nearing its end reads the next one after the last shown, until none is left', async () => {
    await firstPage();
    expect(titles()).toEqual(['Conversation 1', 'Conversation 2', 'Conversation 3']);
    endComesIntoView();
    const more = await main.next('chat.list');
    expect(more.input).toEqual({ cursor: cursorOf(page1[2]) });
    expect(screen.getByText('Loading more conversations…')).toBeTruthy();
    // Asked again while that page is on its way: it is asked for once.
    void useChat.getState().loadMoreList();
    expect(main.waiting('chat.list')).toHaveLength(1);
    await more.answer({ conversations: page2 });
    expect(titles()).toEqual([
      'Conversation 1',
      'Conversation 2',
      'Conversation 3',
      'Conversation 4',
      'Conversation 5',
    ]);
    expect(screen.queryByTestId('conv-list-end')).toBeNull();
  });

  it('a page that fails says why, and Try again asks for it again', async () => {
    await firstPage();
    endComesIntoView();
    await (await main.next('chat.list')).fail({ code: 'unavailable', message: 'The chat database is busy.' });
    expect(screen.getByRole('alert').textContent).toContain('The chat database is busy.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const again = await main.next('chat.list');
    expect(again.input).toEqual({ cursor: cursorOf(page1[2]) });
    await again.answer({ conversations: page2 });
    expect(titles()).toHaveLength(5);
  });

  it('a page answered after the list was read afresh is dropped (it continued a list no longer shown)', async () => {
    await firstPage();
    endComesIntoView();
    const late = await main.next('chat.list');
    void useChat.getState().loadList();
    const fresh = await vi.waitFor(() => main.waiting('chat.list')[1] ?? Promise.reject(new Error('not asked')));
    expect(fresh.input).toEqual({});
    await fresh.answer({ conversations: [conv(0), ...page1.slice(0, 2)], nextCursor: cursorOf(page1[1]) });
    await late.answer({ conversations: page2 });
    expect(titles()).toEqual(['Conversation 0', 'Conversation 1', 'Conversation 2']);
  });

  it('a renamed conversation moves to the top; unpinning one past the pages read leaves it to its page', async () => {
    await firstPage();
    void useChat.getState().update('c_conv3', { title: 'Renamed' });
    const renamed = conv(3, { title: 'Renamed', updatedAt: '2026-11-21T00:00:00.000Z' });
    await (await main.next('chat.update')).answer(renamed);
    expect(titles()).toEqual(['Renamed', 'Conversation 1', 'Conversation 2']);
    // Pinned, it leads; unpinned with an older update time than the last one read, it belongs to a later page.
    void useChat.getState().update('c_conv2', { pinned: true });
    await (await main.next('chat.update')).answer(conv(2, { pinned: true }));
    expect(titles()).toEqual(['★ Conversation 2', 'Renamed', 'Conversation 1']);
    void useChat.getState().update('c_conv2', { pinned: false, title: 'Old' });
    await (await main.next('chat.update')).answer(conv(9, { id: 'c_conv2', title: 'Old' }));
    expect(titles()).toEqual(['Renamed', 'Conversation 1']);
    expect(main.waiting('chat.list')).toHaveLength(0);
  });
});
