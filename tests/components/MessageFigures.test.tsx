// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatFigures, ChatMessage } from '@shared/contract/chat-message';
import { Message, type MessageActions } from '../../renderer/src/pages/chat/Message';

const noop = () => undefined;
const actions: MessageActions = {
  onCopy: noop,
  onRegenerate: noop,
  onSaveEdit: noop,
  onSelectVersion: noop,
  onToolAnswer: async () => undefined,
};
const reply = (figures: ChatFigures): ChatMessage => ({
  id: 'm_1',
  role: 'assistant',
  content: 'Hello',
  status: 'complete',
  model: 'Qwen3-0.6B-Q8_0.gguf',
  figures,
  createdAt: '2026-11-26T10:00:00.000Z',
});
const figures = (f: ChatFigures) => {
  render(<Message m={reply(f)} isLast={false} busy={false} actions={actions} />);
  return screen.getByTestId('msg-figures');
};

afterEach(cleanup);

describe('the speed under a reply', () => {
  it('shows every figure the server gave, says they are the server’s, and counts right', () => {
    const el = figures({
      evalTokens: 1,
      tokensPerSecond: 52.345,
      promptTokens: 1,
      promptTokensPerSecond: 310.2,
      ttftMs: 182,
      loadMs: 40,
      totalMs: 1234,
      source: 'server',
    });
    expect(el.textContent).toBe(
      '1 token · 52.3 tok/s · first token 182 ms · prompt 1 token at 310.2 tok/s · load 40 ms · total 1.23 s · server',
    );
    expect(el.getAttribute('title')).toMatch(/reported by the server/);
  });

  it('labels figures measured in main, and a slow first token in seconds', () => {
    const el = figures({ evalTokens: 24, tokensPerSecond: 8, ttftMs: 2500, promptTokens: 12, source: 'measured' });
    expect(el.textContent).toBe('24 tokens · 8 tok/s · first token 2.5 s · prompt 12 tokens · measured');
    expect(el.getAttribute('title')).toMatch(/measured by HubDesk/);
  });

  it('older replies without a source show their figures unlabelled', () => {
    const el = figures({ evalTokens: 3, tokensPerSecond: 10, doneReason: 'length' });
    expect(el.textContent).toBe('3 tokens · 10 tok/s · stopped at the token limit');
  });
});
