import type { ChatMessage } from '@shared/contract/chat-message';
import type { Snippet } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import type { EngineKind } from '../engines/types';
import type { Conversation } from './storage/conversation';
import { fitTurns, toTurns, type Turn } from './replies/turns';

const clip = (t: Turn): Turn => ({ ...t, content: t.content.slice(0, 20_000) });
/** The documents' context goes whole up to this (a long context's passages): the code sends what was sent. */
const MAX_CONTEXT_CHARS = 400_000;

/** The documents' context text the last reply was given (the reply after the last user message), if it had any. */
function lastReplyContext(messages: readonly ChatMessage[]): string | undefined {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  if (lastUser < 0) return undefined;
  return messages.slice(lastUser + 1).find((m) => m.context?.text)?.context?.text;
}

/**
 * "Open as code": the conversation (system prompt, parameters, messages, tool calls and results) as runnable
 * snippets in the engine's own terms (`EngineKind.code`: Ollama's clients, the inference snippets for the router,
 * the OpenAI clients with a server's base URL). The messages are exactly what the chat request sends (`toTurns`),
 * ending with the last user turn so running it reproduces the last reply: with the documents' context that reply
 * was given as its second system message.
 */
export async function conversationCode(
  conv: Conversation,
  kind: EngineKind,
): Promise<{ snippets: Snippet[]; notice?: string }> {
  const { meta } = conv;
  if (!meta.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
  // Tool turns go along where the engine takes them without tools, else only while tool sources are on: as sent.
  const tools = kind.toolHistoryWithoutTools || meta.toolSources.length > 0;
  const context = lastReplyContext(conv.messages)?.slice(0, MAX_CONTEXT_CHARS);
  const all = toTurns(meta.system.slice(0, 20_000), conv.messages, { tools, context }).map((t) =>
    t.role === 'system' ? t : clip(t),
  );
  while (all.length && all.at(-1)!.role === 'assistant') all.pop();
  // The engine takes up to 50 messages: the system prompt and the most recent ones, from a user turn on.
  const fit = fitTurns(all, 50);
  if (!fit.some((t) => t.role === 'user')) fit.push({ role: 'user', content: 'Hello!' });
  return kind.code(meta, fit);
}
