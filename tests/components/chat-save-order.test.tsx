// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));

const { useChat } = await import('../../renderer/src/store/chat');

const meta = conversationMeta({ id: 'c_save', title: 'Saved first', params: { max_tokens: 12 } });

beforeEach(() => {
  main.answer('chat.list', () => ({ conversations: [meta] }));
  useChat.setState({ convs: { [meta.id]: { meta, messages: [], loading: false } }, list: [meta], running: {} });
});
afterEach(() => main.reset());

describe('a setting changed just before sending', () => {
  it('is saved before the reply is asked for, so the reply uses it', async () => {
    // max tokens typed, then the field left (its save goes to main), then Enter in the composer at once.
    const saved = useChat.getState().update(meta.id, { params: { max_tokens: 100_000 } });
    useChat.getState().send(meta.id, 'tell me more');
    const update = await main.next('chat.update');
    // Main has not answered the save: the reply is not asked for yet.
    await new Promise((r) => setTimeout(r, 20));
    expect(main.opened('chat.send')).toHaveLength(0);
    await update.answer({ ...meta, params: { max_tokens: 100_000 } });
    await saved;
    const stream = await main.stream('chat.send');
    expect(stream.input).toEqual({ id: meta.id, content: 'tell me more' });
    await stream.end({ messages: [] });
  });

  it('a failed save does not hold the reply back', async () => {
    const saved = useChat
      .getState()
      .update(meta.id, { params: { max_tokens: 5 } })
      .catch(() => 'refused');
    useChat.getState().send(meta.id, 'hello');
    await (await main.next('chat.update')).fail({ code: 'invalid_input', message: 'No.' });
    expect(await saved).toBe('refused');
    const stream = await main.stream('chat.send');
    await stream.end({ messages: [] });
  });

  it('with nothing being saved the reply is asked for at once', () => {
    useChat.getState().send(meta.id, 'hello');
    expect(main.opened('chat.send')).toHaveLength(1);
  });
});

describe('the sampling fields', () => {
  it('a change made before main answered the last one keeps that one; a field left unchanged saves nothing', async () => {
    const { render, screen, cleanup } = await import('@testing-library/react');
    const { default: userEvent } = await import('@testing-library/user-event');
    const { MoreSettings } = await import('../../renderer/src/pages/chat/MoreSettings');
    try {
      render(<MoreSettings meta={meta} />);
      const user = userEvent.setup();
      const max = screen.getByLabelText('max tokens');
      await user.clear(max);
      await user.type(max, '100000');
      // Leaving it for seed saves max tokens; leaving seed unchanged for temperature saves nothing.
      await user.click(screen.getByLabelText('seed'));
      await user.type(screen.getByLabelText('temperature'), '0.5');
      await user.tab();
      const first = await main.next('chat.update');
      expect(first.input).toEqual({ id: meta.id, patch: { params: { max_tokens: 100_000 } } });
      await first.answer({ ...meta, params: { max_tokens: 100_000 } });
      const second = await main.next('chat.update');
      // Built on the change main had not answered when it was made, not on the older meta (max tokens 12).
      expect(second.input).toEqual({ id: meta.id, patch: { params: { max_tokens: 100_000, temperature: 0.5 } } });
      await second.answer({ ...meta, params: { max_tokens: 100_000, temperature: 0.5 } });
    } finally {
      cleanup();
    }
  });
});
