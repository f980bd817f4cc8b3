import type { ChatMessage, ConversationExport } from '@shared/contract/chat';

const code =
  '```python\nfrom transformers import pipeline\npipe = pipeline("text-generation")\nprint(pipe("Hello"))\n```';

/** A realistic mix: short questions, longer Markdown answers, a code block every few replies. */
export function syntheticMessages(n: number): ChatMessage[] {
  const base = Date.parse('2026-01-01T00:00:00Z');
  return Array.from({ length: n }, (_, i) => {
    const user = i % 2 === 0;
    const content = user
      ? `Question ${i}: how do I run model number ${i} locally?`
      : `Answer ${i}. You can **pull** it with Ollama and then:\n\n- open the chat\n- pick the model\n\n${i % 6 === 1 ? code : 'That is all.'}`;
    return {
      id: `m_bench${i.toString(36).padStart(6, '0')}`,
      role: user ? 'user' : 'assistant',
      content,
      status: 'complete',
      createdAt: new Date(base + i * 1000).toISOString(),
    } satisfies ChatMessage;
  });
}

/** An export file HubDesk imports, holding `n` messages. */
export function syntheticExport(n: number, title: string): ConversationExport {
  const now = new Date().toISOString();
  return {
    format: 'hubdesk.conversation',
    version: 1,
    meta: {
      id: `c_bench${n}`,
      title,
      backend: 'ollama',
      model: 'llama3.2:latest',
      provider: 'auto',
      system: '',
      params: {},
      webSearch: false,
      pinned: false,
      createdAt: now,
      updatedAt: now,
      messageCount: n,
    },
    messages: syntheticMessages(n),
  };
}
