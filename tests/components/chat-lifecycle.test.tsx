// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));

const { useChat } = await import('../../renderer/src/store/chat');
const { MarkdownBody } = await import('../../renderer/src/pages/chat/MarkdownBody');
const { Message } = await import('../../renderer/src/pages/chat/Message');

const at = '2026-11-26T10:00:00.000Z';
const meta = conversationMeta({ id: 'c_stop', title: 'Fox', model: 'llama3.2', createdAt: at, updatedAt: at });
const user: ChatMessage = { id: 'm_q', role: 'user', content: 'go on', status: 'complete', createdAt: at };
const reply: ChatMessage = {
  id: 'm_r',
  role: 'assistant',
  content: '',
  status: 'streaming',
  model: 'llama3.2',
  createdAt: at,
};

afterEach(() => {
  cleanup();
  main.reset();
  vi.unstubAllGlobals();
});

describe('Stop keeps what the page showed', () => {
  let frames: FrameRequestCallback[];
  /** One animation frame: the page paints the text that arrived since the last one. */
  const paint = () =>
    act(() => {
      const due = frames.splice(0);
      for (const fn of due) fn(performance.now());
    });
  beforeEach(() => {
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (fn: FrameRequestCallback) => frames.push(fn));
    useChat.setState({ convs: { [meta.id]: { meta, messages: [], loading: false } }, list: [meta], running: {} });
  });

  it('text that arrived after the last paint is neither shown nor kept; main is told how much was shown', async () => {
    main.answer('chat.list', () => ({ conversations: [meta] }));
    useChat.getState().send(meta.id, 'go on');
    const stream = await main.stream('chat.send');
    await stream.events({ type: 'message', message: user }, { type: 'message', message: reply });
    const { container } = render(<MarkdownBody text="" liveId={reply.id} />);
    const body = () => container.textContent?.trim();
    await stream.events({ type: 'delta', id: reply.id, content: 'The quick brown fox jumps over the lazy dog. The' });
    await paint();
    expect(body()).toBe('The quick brown fox jumps over the lazy dog. The');
    // A token reaches the page between the last frame and the click: it was never on screen.
    await stream.events({ type: 'delta', id: reply.id, content: ' quick' });
    useChat.getState().stop(meta.id);
    const stop = await main.next('chat.stop');
    expect(stop.input).toEqual({
      id: meta.id,
      shown: { messageId: reply.id, content: 'The quick brown fox jumps over the lazy dog. The'.length, thinking: 0 },
    });
    // Tokens still on their way change nothing on screen.
    await stream.events({ type: 'delta', id: reply.id, content: ' brown' });
    await paint();
    expect(body()).toBe('The quick brown fox jumps over the lazy dog. The');
    // Main stops the reply itself and says how it ended; the stream is not cut from this side.
    await stop.answer({ stopped: true });
    expect(stream.cancelled).toBe(false);
    const kept = { ...reply, status: 'stopped' as const, content: 'The quick brown fox jumps over the lazy dog. The' };
    await stream.events({ type: 'message', message: kept });
    await stream.fail({ code: 'aborted', message: 'Stopped.' });
    expect(useChat.getState().convs[meta.id].messages.at(-1)).toMatchObject({
      status: 'stopped',
      content: 'The quick brown fox jumps over the lazy dog. The',
    });
    expect(useChat.getState().replyError[meta.id]).toBeUndefined();
  });

  it('deleting the conversation while its reply streams stops it as Stop does: no error shown', async () => {
    main.answer('chat.list', () => ({ conversations: [] }));
    useChat.getState().send(meta.id, 'go on');
    const stream = await main.stream('chat.send');
    await stream.events({ type: 'message', message: user }, { type: 'message', message: reply });
    await stream.events({ type: 'delta', id: reply.id, content: 'Partial' });
    await paint();
    const removed = useChat.getState().remove(meta.id);
    const stop = await main.next('chat.stop');
    expect(stop.input).toMatchObject({ shown: { messageId: reply.id, content: 'Partial'.length } });
    await (await main.next('chat.delete')).answer({ deleted: true });
    await removed;
    await stop.answer({ stopped: true });
    await stream.fail({ code: 'aborted', message: 'Stopped.' });
    expect(stream.cancelled).toBe(false);
    expect(useChat.getState().replyError[meta.id]).toBeUndefined();
    expect(useChat.getState().list.map((m) => m.id)).not.toContain(meta.id);
  });

  it('when main had nothing running any more, the stream is cancelled instead', async () => {
    main.answer('chat.list', () => ({ conversations: [meta] }));
    useChat.getState().send(meta.id, 'go on');
    const stream = await main.stream('chat.send');
    useChat.getState().stop(meta.id);
    const stop = await main.next('chat.stop');
    // No reply shown yet: none of it is kept.
    expect(stop.input).toEqual({ id: meta.id, shown: { content: 0, thinking: 0 } });
    await stop.answer({ stopped: false });
    expect(stream.cancelled).toBe(true);
  });
});

describe('"Save" of an edited question', () => {
  it('the saved version ends the conversation at once, without the reply; the sidebar counts what is shown', async () => {
    const answered = { ...reply, status: 'complete' as const, content: 'Answer to go on' };
    const two = { ...meta, messageCount: 2 };
    useChat.setState({ convs: { [meta.id]: { meta: two, messages: [user, answered], loading: false } }, list: [two] });
    const saving = useChat.getState().editOnly(meta.id, user.id, 'Fixed typo question');
    const edit = await main.next('chat.edit');
    expect(edit.input).toEqual({ id: meta.id, messageId: user.id, content: 'Fixed typo question' });
    const saved: ChatMessage = { ...user, id: 'm_q2', content: 'Fixed typo question' };
    await edit.answer(saved);
    // The reply stays with the question it answered: it is not shown under the saved text.
    expect(useChat.getState().convs[meta.id].messages).toEqual([saved]);
    const view = await main.next('chat.get');
    expect(view.input).toEqual({ id: meta.id, around: saved.id });
    const one = { ...meta, messageCount: 1 };
    await view.answer({
      meta: one,
      messages: [saved],
      versions: { m_q2: ['m_q', 'm_q2'] },
      hasOlder: false,
      hasNewer: false,
    });
    await saving;
    expect(useChat.getState().list.find((m) => m.id === meta.id)?.messageCount).toBe(1);
  });
});

describe('a question the conversation ends on, not answered yet', () => {
  const actions = {
    onCopy: vi.fn(),
    onRegenerate: vi.fn(),
    onSaveEdit: vi.fn(),
    onSelectVersion: vi.fn(),
    onToolAnswer: vi.fn(),
  };

  it('a saved edit says it is a new version whose earlier one keeps its reply, and offers to get one', async () => {
    const edited: ChatMessage = { ...user, id: 'm_q2', content: 'Fixed typo question' };
    render(<Message m={edited} versions={['m_q', 'm_q2']} isLast busy={false} actions={actions} />);
    expect(screen.getByTestId('msg-no-reply').textContent).toMatch(
      /new version, not answered yet.*earlier version keeps its reply/,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Get a reply' }));
    expect(actions.onRegenerate).toHaveBeenCalledOnce();
  });

  it('not while a reply is being written, nor under a question that has its reply', () => {
    const { rerender } = render(<Message m={user} isLast busy actions={actions} />);
    expect(screen.queryByTestId('msg-no-reply')).toBeNull();
    rerender(<Message m={user} isLast={false} busy={false} actions={actions} />);
    expect(screen.queryByTestId('msg-no-reply')).toBeNull();
  });
});

describe('a conversation opened again while its view is asked of main', () => {
  it('a question sent meanwhile is not replaced by the older view when it comes', async () => {
    const answered = { ...reply, status: 'complete' as const, content: 'Answer to go on' };
    const two = { ...meta, messageCount: 2 };
    useChat.setState({ convs: { [meta.id]: { meta: two, messages: [user, answered], loading: false } }, running: {} });
    const opening = useChat.getState().open(meta.id);
    const view = await main.next('chat.get');
    // Sent before main answers the view (the conversation was on screen: its composer too).
    useChat.getState().send(meta.id, 'and then?');
    const stream = await main.stream('chat.send');
    const asked: ChatMessage = { ...user, id: 'm_q3', content: 'and then?' };
    await stream.events({ type: 'message', message: asked });
    await view.answer({ meta: two, messages: [user, answered], versions: {}, hasOlder: false, hasNewer: false });
    await opening;
    const shown = useChat.getState().convs[meta.id];
    expect(shown.messages.map((m) => m.content)).toEqual(['go on', 'Answer to go on', 'and then?']);
    expect(shown.loading).toBe(false);
  });
});
