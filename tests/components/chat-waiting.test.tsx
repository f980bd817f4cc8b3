// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));

const { useChat } = await import('../../renderer/src/store/chat');
const { Message } = await import('../../renderer/src/pages/chat/Message');

const at = '2026-11-26T10:00:00.000Z';
const qwen = 'Qwen/Qwen3-0.6B-GGUF/Qwen3-0.6B-Q8_0.gguf';
const meta = conversationMeta({ id: 'c_wait', title: 'Queue', backend: 'local', model: qwen, createdAt: at });
const user: ChatMessage = { id: 'm_q', role: 'user', content: 'hello', status: 'complete', createdAt: at };
const reply: ChatMessage = {
  id: 'm_r',
  role: 'assistant',
  content: '',
  status: 'streaming',
  model: qwen,
  createdAt: at,
};
const actions = {
  onCopy: vi.fn(),
  onRegenerate: vi.fn(),
  onSaveEdit: vi.fn(),
  onSelectVersion: vi.fn(),
  onToolAnswer: vi.fn(),
};

/** The conversation's last message as the thread shows it, following the store. */
function LastMessage() {
  const m = useChat((s) => s.convs[meta.id]?.messages.at(-1));
  const busy = useChat((s) => !!s.running[meta.id]);
  return m ? <Message m={m} isLast busy={busy} actions={actions} /> : null;
}

beforeEach(() => {
  main.answer('chat.list', () => ({ conversations: [meta] }));
  useChat.setState({ convs: { [meta.id]: { meta, messages: [], loading: false } }, list: [meta], running: {} });
});
afterEach(() => {
  cleanup();
  main.reset();
});

/** Sends "hello"; main writes the question and the empty streaming reply. */
async function send() {
  render(<LastMessage />);
  useChat.getState().send(meta.id, 'hello');
  const stream = await main.stream('chat.send');
  await stream.events({ type: 'message', message: user }, { type: 'message', message: reply });
  return stream;
}

describe('a reply waiting for the built-in engine', () => {
  it('says how many requests are ahead, politely, as its place moves up; it goes once the first text arrives', async () => {
    const stream = await send();
    expect(screen.queryByTestId('msg-waiting')).toBeNull();
    await stream.events({ type: 'waiting', ahead: 2 });
    const notice = screen.getByRole('status');
    expect(notice.textContent).toBe('Waiting for the model — 2 requests ahead');
    await stream.events({ type: 'waiting', ahead: 1 });
    expect(screen.getByRole('status').textContent).toBe('Waiting for the model — 1 request ahead');

    await stream.events({ type: 'delta', id: reply.id, content: 'Hi' });
    expect(screen.queryByTestId('msg-waiting')).toBeNull();
    expect(screen.getByTestId('msg-assistant').dataset.status).toBe('streaming');
    await stream.events({ type: 'message', message: { ...reply, content: 'Hi there', status: 'complete' } });
    await stream.end({ messages: [] });
    expect(useChat.getState().running[meta.id]).toBeUndefined();
  });

  it('thinking counts as its first text; a reply that ends while it waits leaves no notice behind', async () => {
    const stream = await send();
    await stream.events({ type: 'waiting', ahead: 3 });
    expect(screen.getByTestId('msg-waiting').textContent).toBe('Waiting for the model — 3 requests ahead');
    await stream.events({ type: 'delta', id: reply.id, thinking: 'Let me see' });
    expect(screen.queryByTestId('msg-waiting')).toBeNull();
    await stream.end({ messages: [] });
    cleanup();

    const next = await send();
    await next.events({ type: 'waiting', ahead: 1 });
    expect(screen.getByTestId('msg-waiting')).toBeTruthy();
    await next.events({
      type: 'message',
      message: { ...reply, status: 'error', error: { code: 'unavailable', message: 'The built-in engine stopped.' } },
    });
    expect(screen.queryByTestId('msg-waiting')).toBeNull();
    // Still running (main has not ended the stream yet), no longer waiting.
    expect(useChat.getState().running[meta.id]).toBeDefined();
    expect(useChat.getState().running[meta.id]?.waiting).toBeUndefined();
    await next.fail({ code: 'unavailable', message: 'The built-in engine stopped.' });
    expect(useChat.getState().running[meta.id]).toBeUndefined();
  });
});
