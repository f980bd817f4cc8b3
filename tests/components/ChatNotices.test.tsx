// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { SettingsView } from '@shared/contract/settings';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { useChat } = await import('../../renderer/src/store/chat');
const { useSettings } = await import('../../renderer/src/store/settings');
const { Thread } = await import('../../renderer/src/pages/chat/Thread');
const { Message } = await import('../../renderer/src/pages/chat/Message');

const at = '2026-11-26T10:00:00.000Z';
const meta = conversationMeta({ id: 'c_note', title: 'Notes', messageCount: 1, createdAt: at, updatedAt: at });
const answer: ChatMessage = { id: 'm_a', role: 'assistant', content: 'Forty-two', status: 'complete', createdAt: at };

beforeEach(() => {
  // The message list measures its rows; jsdom has no layout.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  main.reset();
  main.answer('chat.capabilities', () => ({ capabilities: [] }));
  useSettings.setState({ view: { values: {}, secrets: [], bindings: [] } as unknown as SettingsView });
  useChat.setState({ list: [meta], convs: { [meta.id]: { meta, messages: [answer], loading: false } }, running: {} });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the thread's notices", () => {
  it('a failed export says why for a moment, in its own notice', async () => {
    const user = userEvent.setup();
    render(<Thread id={meta.id} />);
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(screen.getByRole('menuitem', { name: 'Export .md' }));
    const call = await main.next('chat.export');
    expect(call.input).toEqual({ id: meta.id, format: 'markdown' });
    await call.fail({ code: 'internal', message: 'The disk is full.' });
    expect(screen.getByText('Export failed: The disk is full.')).toBeTruthy();
    // It goes after a moment, as Copy's does.
    await vi.waitFor(() => expect(screen.queryByText('Export failed: The disk is full.')).toBeNull(), {
      timeout: 2500,
    });
  });

  it("a failed reply's error is said in the message, with its action; no banner repeats it", async () => {
    const error = {
      code: 'upstream' as const,
      message: 'Ollama stopped: llama runner process has terminated.',
      details: { action: { kind: 'retry' } },
    };
    const failed: ChatMessage = { ...answer, id: 'm_f', content: '', status: 'error', error };
    const onRegenerate = vi.fn();
    const actions = { onCopy() {}, onRegenerate, onSaveEdit() {}, onSelectVersion() {}, onToolAnswer: async () => {} };
    render(<Message m={failed} isLast busy={false} actions={actions} />);
    const said = screen.getByTestId('reply-error');
    expect(said.textContent).toContain('llama runner process has terminated');
    await userEvent.click(within(said).getByRole('button', { name: 'Retry' }));
    expect(onRegenerate).toHaveBeenCalledOnce();
    cleanup();

    // The thread around it: the message carries the error, so the notice above the composer stays away.
    useChat.setState({
      convs: { [meta.id]: { meta, messages: [failed], loading: false } },
      replyError: { [meta.id]: error },
    });
    const { container } = render(<Thread id={meta.id} />);
    expect(container.querySelector('.thread > [data-testid="reply-error"]')).toBeNull();
    cleanup();

    // Switching versions failed: no message says so, so the notice above the composer does.
    const other = { code: 'internal' as const, message: 'The chat database is busy.' };
    useChat.setState({
      convs: { [meta.id]: { meta, messages: [answer], loading: false } },
      replyError: { [meta.id]: other },
    });
    render(<Thread id={meta.id} />);
    expect(screen.getByTestId('reply-error').textContent).toContain('The chat database is busy.');
  });
});
