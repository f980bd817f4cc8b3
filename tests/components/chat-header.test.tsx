// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { SettingsView } from '@shared/contract/settings';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { useChat } = await import('../../renderer/src/store/chat');
const { useEndpoints } = await import('../../renderer/src/store/endpoints');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useRoute } = await import('../../renderer/src/store/route');
const { ChatPage } = await import('../../renderer/src/pages/chat/ChatPage');

const LAST_OPEN = 'hubdesk.chat.lastOpen';
const at = (minutes: number) => new Date(Date.parse('2026-11-20T00:00:00.000Z') + minutes * 60_000).toISOString();
const conv = (id: string, patch: Partial<ConversationMeta> = {}) =>
  conversationMeta({ id, title: `Title of ${id}`, model: 'qwen3:8b', messageCount: 0, updatedAt: at(0), ...patch });

beforeEach(() => {
  main.reset();
  localStorage.clear();
  main.answer('chat.models', () => ({ models: [{ name: 'qwen3:8b', running: false }] }));
  main.answer('chat.capabilities', () => ({ capabilities: ['completion', 'tools', 'thinking'] }));
  main.answer('chat.toolSources', () => ({ sources: [] }));
  main.answer('endpoints.list', () => ({ endpoints: [] }));
  useEndpoints.setState({ list: undefined, error: undefined, listing: false });
  useChat.setState({ list: [], listNext: undefined, listLoading: true, convs: {}, currentId: undefined, running: {} });
  useSettings.setState({ view: { values: {}, secrets: [], bindings: [] } as unknown as SettingsView });
  location.hash = '#/chat';
  useRoute.setState({ page: 'chat', params: [] });
});
afterEach(cleanup);

/** The chat page at `#/chat`, main's list answered; returns the conversation it opens (chat.get), answered. */
async function chatPageWith(list: ConversationMeta[]) {
  render(<ChatPage />);
  await (await main.next('chat.list')).answer({ conversations: list });
  if (!list.length) return undefined;
  const get = await main.next('chat.get');
  const meta = list.find((m) => m.id === (get.input as { id: string }).id)!;
  await get.answer({ meta, messages: [], versions: {}, hasOlder: false, hasNewer: false });
  return meta;
}

describe('Chat page with no conversation in the address', () => {
  it('reopens the conversation open last, in place of the address', async () => {
    localStorage.setItem(LAST_OPEN, 'c_older');
    const opened = await chatPageWith([conv('c_newer', { updatedAt: at(5) }), conv('c_older')]);
    expect(opened?.id).toBe('c_older');
    expect(location.hash).toBe('#/chat/c_older');
    expect(await screen.findByTestId('thread-title')).toHaveProperty('textContent', 'Title of c_older');
    expect(screen.queryByText('Pick a conversation')).toBeNull();
  });

  it('else the newest one (not a pinned older one), and remembers what is opened for the next time', async () => {
    localStorage.setItem(LAST_OPEN, 'c_deleted');
    const list = [conv('c_pinned', { pinned: true }), conv('c_newest', { updatedAt: at(9) }), conv('c_mid')];
    expect((await chatPageWith(list))?.id).toBe('c_newest');
    expect(localStorage.getItem(LAST_OPEN)).toBe('c_newest');
    void useChat.getState().open('c_mid');
    expect(localStorage.getItem(LAST_OPEN)).toBe('c_mid');
  });

  it('an empty list keeps the empty state, with New chat', async () => {
    await chatPageWith([]);
    const empty = (await screen.findByText('No conversations yet')).closest('.thread-empty') as HTMLElement;
    expect(within(empty).getByRole('button', { name: 'New chat' })).toBeTruthy();
    expect(main.waiting('chat.get')).toHaveLength(0);
    expect(location.hash).toBe('#/chat');
  });
});

describe('Chat header', () => {
  it('holds the engine, model, Tools with the sources on, and Think; the rest folds under More settings', async () => {
    const meta = conv('c_one', { toolSources: ['web', 'fetch'], params: { temperature: 0.3 } });
    await chatPageWith([meta]);
    const header = (await screen.findByTestId('thread')).querySelector('header')!;
    const h = within(header);
    expect(h.getByRole('radiogroup', { name: 'Backend' })).toBeTruthy();
    expect(h.getByRole('radio', { name: 'Ollama' }).getAttribute('aria-checked')).toBe('true');
    expect(h.getByRole('radio', { name: 'Built-in (llama.cpp)' })).toBeTruthy();
    expect(h.getByRole('radio', { name: 'HF router' })).toBeTruthy();
    expect(h.getByRole('combobox', { name: 'Model' })).toBeTruthy();
    expect(h.getByTestId('tool-picker').textContent).toBe('Tools · 2');
    expect(h.getByRole('checkbox', { name: 'Think' })).toBeTruthy();

    // Folded: no system prompt or parameters until "More settings" opens them.
    const more = h.getByRole('button', { name: 'More settings' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('System prompt')).toBeNull();
    await userEvent.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(more.getAttribute('aria-controls')!)!;
    expect(within(panel).getByLabelText('System prompt')).toBeTruthy();
    expect(within(panel).getByLabelText('temperature')).toHaveProperty('value', '0.3');
    await userEvent.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('System prompt')).toBeNull();
  });

  it('a conversation without a model has its picker in view, with no settings to open first', async () => {
    await chatPageWith([conv('c_none', { model: '' })]);
    expect(await screen.findByRole('combobox', { name: 'Model' })).toHaveProperty('value', '');
    expect(screen.getByRole('button', { name: 'More settings' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('tool-picker').textContent).toBe('Tools');
  });
});
