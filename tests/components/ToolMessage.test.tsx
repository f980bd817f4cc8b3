// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { WEB_TOOLS } from '@shared/contract/chat-conversation';
import { ToolMessage } from '../../renderer/src/pages/chat/ToolMessage';

const base: ChatMessage = {
  id: 'm_tool1',
  role: 'tool',
  content: '',
  toolName: 'add',
  toolSource: 'calc',
  toolArguments: { a: 2, b: 40 },
  status: 'streaming',
  createdAt: '2026-11-23T10:00:00.000Z',
};

afterEach(cleanup);

describe('ToolMessage: one tool call and its result', () => {
  it('waiting: shows the source, the tool and its arguments, and sends the answer the user picks, once', async () => {
    const onAnswer = vi.fn(() => new Promise<void>(() => {}));
    render(<ToolMessage m={{ ...base, toolState: 'approval' }} onAnswer={onAnswer} />);
    expect(screen.getByText('calc')).toBeTruthy();
    expect(screen.getByText('waiting for your approval')).toBeTruthy();
    expect(screen.getByLabelText('Arguments of add').textContent).toBe('{\n  "a": 2,\n  "b": 40\n}');
    const group = screen.getByRole('group', { name: 'Run add?' });
    expect(group).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Always in this chat' }));
    expect(onAnswer).toHaveBeenCalledWith('m_tool1', 'always');
    // The answer is on its way: the buttons cannot send a second one.
    for (const name of ['Allow once', 'Always in this chat', 'Deny'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('an answer main refuses (the call ended meanwhile) is shown, and the buttons come back', async () => {
    const onAnswer = vi.fn(() => Promise.reject({ code: 'conflict', message: 'That tool call is no longer waiting.' }));
    render(<ToolMessage m={{ ...base, toolState: 'approval' }} onAnswer={onAnswer} />);
    await userEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That tool call is no longer waiting.');
    expect((screen.getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('running: offers Cancel, with the keyboard too', async () => {
    const onAnswer = vi.fn(() => Promise.resolve());
    render(<ToolMessage m={{ ...base, toolState: 'running', toolDecision: 'once' }} onAnswer={onAnswer} />);
    expect(screen.getByTestId('tool-state').textContent).toBe('running…');
    screen.getByRole('button', { name: 'Cancel' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(onAnswer).toHaveBeenCalledWith('m_tool1', 'cancel');
  });

  it('done: the result, how long it took, how it was allowed; long results fold', () => {
    const { rerender } = render(
      <ToolMessage
        m={{ ...base, status: 'complete', content: '42', durationMs: 1234, toolDecision: 'auto' }}
        onAnswer={vi.fn()}
      />,
    );
    expect(screen.getByTestId('tool-state').textContent).toBe('done in 1.2 s');
    expect(screen.getByText(/allowed always here/)).toBeTruthy();
    expect(screen.getByTestId('tool-result').textContent).toBe('42');
    expect(screen.queryByRole('button')).toBeNull();
    expect((screen.getByText('Result').closest('details') as HTMLDetailsElement).open).toBe(true);
    rerender(<ToolMessage m={{ ...base, status: 'complete', content: 'x'.repeat(5000) }} onAnswer={vi.fn()} />);
    expect(screen.getByText('Result (5,000 characters)').closest('details')!.open).toBe(false);
  });

  it('declined, failed and stopped calls say so; images are shown with a name', () => {
    const { rerender } = render(
      <ToolMessage
        m={{
          ...base,
          status: 'error',
          toolDecision: 'deny',
          error: { code: 'forbidden', message: 'You declined this call.' },
        }}
        onAnswer={vi.fn()}
      />,
    );
    expect(screen.getByTestId('tool-state').textContent).toBe('declined');
    expect(screen.getByTestId('tool-error').textContent).toBe('You declined this call.');
    rerender(
      <ToolMessage
        m={{ ...base, status: 'error', durationMs: 80, error: { code: 'timeout', message: 'calc did not answer.' } }}
        onAnswer={vi.fn()}
      />,
    );
    expect(screen.getByTestId('tool-state').textContent).toBe('failed in 80 ms');
    rerender(<ToolMessage m={{ ...base, status: 'stopped' }} onAnswer={vi.fn()} />);
    expect(screen.getByTestId('tool-state').textContent).toBe('stopped');
    rerender(
      <ToolMessage
        m={{ ...base, toolSource: WEB_TOOLS, toolName: 'web_search', status: 'complete', images: ['iVBORw0KGgo='] }}
        onAnswer={vi.fn()}
      />,
    );
    expect(screen.getByText('web')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'web_search image 1' })).toBeTruthy();
  });
});
