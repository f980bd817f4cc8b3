// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat';
import type { SettingsView } from '@shared/contract/settings';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { useChat } = await import('../../renderer/src/store/chat');
const { useSettings } = await import('../../renderer/src/store/settings');
const { Thread } = await import('../../renderer/src/pages/chat/Thread');

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
    await user.click(screen.getByRole('button', { name: 'Export .md' }));
    const call = await main.next('chat.export');
    expect(call.input).toEqual({ id: meta.id, format: 'markdown' });
    await call.fail({ code: 'internal', message: 'The disk is full.' });
    expect(screen.getByText('Export failed: The disk is full.')).toBeTruthy();
    // It goes after a moment, as Copy's does.
    await vi.waitFor(() => expect(screen.queryByText('Export failed: The disk is full.')).toBeNull(), {
      timeout: 2500,
    });
  });
});
