// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));

const { useChat } = await import('../../renderer/src/store/chat');

// The chat store's parts (chat-reply, chat-versions, chat-library) through the one store the screens use, with main
// answering when each test says so.
const at = '2026-11-26T10:00:00.000Z';
const meta = conversationMeta({ id: 'c_parts', title: 'New chat', createdAt: at, updatedAt: at });
const msg = (
  id: string,
  role: ChatMessage['role'],
  content: string,
  extra: Partial<ChatMessage> = {},
): ChatMessage => ({
  id,
  role,
  content,
  status: 'complete',
  createdAt: at,
  ...extra,
});
const state = () => useChat.getState();
const conv = () => state().convs[meta.id];

beforeEach(() => {
  vi.stubGlobal('requestAnimationFrame', (fn: FrameRequestCallback) => setTimeout(() => fn(0), 0));
  useChat.setState({
    list: [meta],
    listNext: undefined,
    convs: { [meta.id]: { meta, messages: [], loading: false } },
    running: {},
    replyError: {},
    drafts: {},
    undo: undefined,
    query: '',
    results: [],
    focus: undefined,
  });
});
afterEach(() => {
  main.reset();
  vi.unstubAllGlobals();
});

describe('send → stream → stop', () => {
  it('a reply streams into the conversation, the sidebar takes its title, and the list is read again at the end', async () => {
    state().send(meta.id, 'Why is the sky blue?');
    expect(state().drafts[meta.id]).toBe('');
    const stream = await main.stream('chat.send');
    expect(stream.input).toEqual({ id: meta.id, content: 'Why is the sky blue?' });
    expect(state().running[meta.id]).toBeDefined();
    const question = msg('m_q', 'user', 'Why is the sky blue?');
    const streaming = msg('m_r', 'assistant', '', { status: 'streaming' });
    await stream.events({ type: 'message', message: question }, { type: 'message', message: streaming });
    expect(state().list[0]).toMatchObject({ title: 'Why is the sky blue?', messageCount: 2 });
    await stream.events({ type: 'message', message: { ...streaming, content: 'Rayleigh.', status: 'complete' } });
    await stream.end({});
    expect(state().running[meta.id]).toBeUndefined();
    expect(conv().messages.map((m) => [m.id, m.status])).toEqual([
      ['m_q', 'complete'],
      ['m_r', 'complete'],
    ]);
    const named = { ...meta, title: 'Why is the sky blue?', messageCount: 2, updatedAt: '2026-11-26T10:01:00.000Z' };
    await (await main.next('chat.list')).answer({ conversations: [named] });
    expect(conv().meta).toEqual(named);
  });

  it('Stop keeps the partial reply, marked stopped, with no error; a failure before main saw the text gives it back', async () => {
    state().send(meta.id, 'Tell me a story');
    const stream = await main.stream('chat.send');
    await stream.events(
      { type: 'message', message: msg('m_q', 'user', 'Tell me a story') },
      { type: 'message', message: msg('m_r', 'assistant', '', { status: 'streaming' }) },
      { type: 'delta', id: 'm_r', content: 'Once' },
    );
    // The frame that paints "Once" (requestAnimationFrame runs on a timer here).
    await new Promise((ok) => setTimeout(ok, 5));
    state().stop(meta.id);
    await (await main.next('chat.stop')).answer({ stopped: false });
    expect(stream.cancelled).toBe(true);
    await vi.waitFor(() => expect(state().running[meta.id]).toBeUndefined());
    expect(conv().messages.at(-1)).toMatchObject({ id: 'm_r', status: 'stopped', content: 'Once' });
    expect(state().replyError[meta.id]).toBeUndefined();

    state().send(meta.id, 'Lost on the way?');
    const failed = await main.stream('chat.send');
    await failed.fail({ code: 'unavailable', message: 'Ollama is not running.' });
    expect(state().replyError[meta.id]).toMatchObject({ code: 'unavailable' });
    expect(state().drafts[meta.id]).toBe('Lost on the way?');
  });
});

describe('edit → new version', () => {
  it('"Save and regenerate" streams the new version, then the path and its versions are read again', async () => {
    const q1 = msg('m_q', 'user', 'Helo');
    const r1 = msg('m_r', 'assistant', 'Hi');
    useChat.setState({ convs: { [meta.id]: { meta, messages: [q1, r1], loading: false } } });
    state().regenerate(meta.id, { messageId: q1.id, content: 'Hello' });
    const stream = await main.stream('chat.regenerate');
    expect(stream.input).toEqual({ id: meta.id, edit: { messageId: 'm_q', content: 'Hello' } });
    const q2 = msg('m_q2', 'user', 'Hello');
    await stream.events({ type: 'cut', from: 'm_q' }, { type: 'message', message: q2 });
    expect(conv().messages.map((m) => m.id)).toEqual(['m_q2']);
    await stream.end({});
    main.answer('chat.list', () => ({ conversations: [meta] }));
    const get = await main.next('chat.get');
    expect(get.input).toEqual({ id: meta.id });
    await get.answer({ meta, messages: [q2], versions: { m_q2: ['m_q', 'm_q2'] }, hasOlder: false, hasNewer: false });
    expect(conv().versions).toEqual({ m_q2: ['m_q', 'm_q2'] });
  });

  it('switching versions shows that version; a refusal is shown as the reply error', async () => {
    const pending = state().selectVersion(meta.id, 'm_q');
    await (await main.next('chat.selectVersion')).fail({ code: 'not_found', message: 'That version is gone.' });
    await pending;
    expect(state().replyError[meta.id]).toMatchObject({ message: 'That version is gone.' });
  });
});

describe('delete → undo', () => {
  it('the conversation leaves the list with an Undo, and Undo brings it back', async () => {
    useChat.setState({ currentId: meta.id, list: [{ ...meta, title: 'Fox' }] });
    const removing = state().remove(meta.id);
    await (await main.next('chat.delete')).answer({ deleted: true });
    await removing;
    expect(state().list).toEqual([]);
    expect(state().undo).toEqual({ id: meta.id, title: 'Fox' });
    expect(state().currentId).toBeUndefined();
    const restoring = state().restore();
    expect(state().undo).toBeUndefined();
    await (await main.next('chat.restore')).answer({ ...meta, title: 'Fox' });
    await restoring;
    expect(state().list.map((m) => m.title)).toEqual(['Fox']);
  });
});

describe('a late answer does not replace a newer one', () => {
  it('search: the answer for earlier text, arriving last, is dropped', async () => {
    const first = state().search('fo');
    const second = state().search('fox');
    const [forFo, forFox] = main.waiting('chat.search');
    const hit = (title: string) => ({ id: meta.id, title, snippet: title, updatedAt: at });
    await forFox.answer({ results: [hit('fox')] });
    await forFo.answer({ results: [hit('fo')] });
    await Promise.all([first, second]);
    expect(state().results.map((r) => r.title)).toEqual(['fox']);
    expect(state().searching).toBe(false);
  });

  it('a search hit read before a reply started does not replace the reply being written', async () => {
    const q = msg('m_q', 'user', 'one');
    useChat.setState({ convs: { [meta.id]: { meta, messages: [q], loading: false } } });
    const focusing = state().focusMessage(meta.id, 'm_old');
    const get = await main.next('chat.get');
    state().send(meta.id, 'two');
    const stream = await main.stream('chat.send');
    await stream.events({ type: 'message', message: msg('m_q3', 'user', 'two') });
    await get.answer({ meta, messages: [msg('m_old', 'user', 'old')], hasOlder: false, hasNewer: true });
    await focusing;
    expect(conv().messages.map((m) => m.id)).toEqual(['m_q', 'm_q3']);
  });

  it('older messages paged in after the window moved are dropped', async () => {
    const q = msg('m_5', 'user', 'five');
    useChat.setState({ convs: { [meta.id]: { meta, messages: [q], hasOlder: true, loading: false } } });
    const paging = state().loadMore(meta.id, 'older');
    const older = await main.next('chat.older');
    useChat.setState({ convs: { [meta.id]: { meta, messages: [msg('m_9', 'user', 'nine')], loading: false } } });
    await older.answer({ messages: [msg('m_4', 'user', 'four')], hasOlder: false });
    await paging;
    expect(conv().messages.map((m) => m.id)).toEqual(['m_9']);
    expect(conv().paging).toBeUndefined();
  });
});
