// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { conversationMeta } from '../fixtures/conversation';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { ChatFiles } = await import('../../renderer/src/pages/chat/ChatFiles');
const { useRoute } = await import('../../renderer/src/store/route');

const meta = (id: string, title: string): ConversationMeta =>
  conversationMeta({
    id,
    title,
    model: 'llama3.2',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    messageCount: 2,
  });
const file = '{"format":"hubdesk.conversation","version":2}';
const pick = () =>
  userEvent.upload(screen.getByTestId('import-file'), new File([file], 'gguf.json', { type: 'application/json' }));

beforeEach(() => {
  main.reset();
  main.answer('chat.list', () => ({ conversations: [] }));
});
afterEach(cleanup);

describe('ChatFiles: importing a file a second time', () => {
  it('asks "Import again as a copy?" and imports a copy only when told to', async () => {
    render(<ChatFiles canExport />);
    await pick();
    const first = await main.next('chat.importFile');
    expect(first.input).toEqual({ text: file });
    await first.fail({
      code: 'conflict',
      message: 'This conversation is already imported as “What is GGUF?”.',
      details: { duplicates: [{ id: 'c_gguf1', title: 'What is GGUF?' }] },
    });
    const ask = screen.getByRole('group', { name: 'Already imported' });
    expect(ask.textContent).toMatch(/already imported as “What is GGUF\?”\. Import again as a copy\?/);
    expect(screen.queryByRole('alert')).toBeNull();
    // The answer the keyboard reaches first.
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Import a copy' }));

    // Cancel: nothing more is asked of main.
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Already imported' })).toBeNull();
    expect(main.waiting('chat.importFile')).toHaveLength(0);

    // The same file again, and this time a copy.
    await pick();
    await (
      await main.next('chat.importFile')
    ).fail({ code: 'conflict', message: 'This conversation is already imported as “What is GGUF?”.' });
    await userEvent.click(screen.getByRole('button', { name: 'Import a copy' }));
    const copy = await main.next('chat.importFile');
    expect(copy.input).toEqual({ text: file, asCopy: true });
    await copy.answer({ conversations: [meta('c_copy1', 'What is GGUF?')] });
    await vi.waitFor(() => expect(useRoute.getState().params).toEqual(['c_copy1']));
    expect(screen.queryByRole('group', { name: 'Already imported' })).toBeNull();
  });

  it('a refused file says why, and is not offered as a copy', async () => {
    render(<ChatFiles canExport />);
    await pick();
    await (
      await main.next('chat.importFile')
    ).fail({ code: 'invalid_input', message: 'This is not a HubDesk conversation export: Invalid input at version.' });
    expect(screen.getByRole('alert').textContent).toMatch(/not a HubDesk conversation export/);
    expect(screen.queryByRole('button', { name: 'Import a copy' })).toBeNull();
  });

  it('a stale import error goes: dismissed, on opening another conversation, after an import that works', async () => {
    const refuse = async () => {
      await pick();
      await (await main.next('chat.importFile')).fail({ code: 'invalid_input', message: 'Not a HubDesk export.' });
      expect(screen.getByRole('alert').textContent).toContain('Not a HubDesk export.');
    };
    const { rerender } = render(<ChatFiles canExport currentId="c_a" />);
    await refuse();
    await userEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();

    await refuse();
    rerender(<ChatFiles canExport currentId="c_b" />);
    expect(screen.queryByRole('alert')).toBeNull();

    await refuse();
    await pick();
    await (await main.next('chat.importFile')).answer({ conversations: [meta('c_new', 'What is GGUF?')] });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
