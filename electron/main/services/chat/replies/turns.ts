import type { ChatMessage, ToolCall } from '@shared/contract/chat-message';

/** One message as a model receives it. */
export interface Turn {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  images?: string[];
  toolCalls?: ToolCall[];
  /** Tool results: which tool answered, and the call they answer. */
  toolName?: string;
  toolCallId?: string;
}

/** A reply that failed or was cut before any text or tool call: nothing a model should see as context. */
const isEmptyReply = (m: ChatMessage) =>
  m.role === 'assistant' && m.status !== 'complete' && !m.content.trim() && !m.toolCalls?.length;

/**
 * The one rule for what a model receives (the chat request and "Open as code" both use it):
 * - one system message: the system prompt, then the documents' context of this answer (`context`: retrieved
 *   passages or whole documents, sent with this answer only, never stored as a message);
 * - replies that failed or were cut with no text are left out;
 * - tool results only right after the assistant turn that called the tools (with `tools: false` — the router —
 *   tool turns and text-less tool-calling turns are left out);
 * - a tool-calling turn whose results never came keeps its text without the calls;
 * - user and assistant then alternate, starting with the user: consecutive messages of one role are merged
 *   (texts joined by a blank line, images kept), a leading assistant turn is dropped.
 */
export function toTurns(
  system: string,
  history: readonly ChatMessage[],
  opts: { tools?: boolean; context?: string } = {},
): Turn[] {
  const tools = opts.tools ?? true;
  const out: Turn[] = [];
  for (const m of history) {
    if (m.status === 'streaming' || isEmptyReply(m)) continue;
    const last = out.at(-1);
    if (m.role === 'tool') {
      // A result belongs after the call that asked for it (or after the results of the same call round).
      if (!tools || !last || !(last.role === 'tool' || (last.role === 'assistant' && last.toolCalls?.length))) continue;
      const t: Turn = { role: 'tool', content: m.content };
      if (m.toolName) t.toolName = m.toolName;
      if (m.toolCallId) t.toolCallId = m.toolCallId;
      out.push(t);
      continue;
    }
    const calls = tools && m.role === 'assistant' && m.toolCalls?.length ? m.toolCalls : undefined;
    if (m.role === 'assistant' && !calls && !m.content.trim()) continue;
    // Nothing before the first user message (a model answers a user).
    if (!last && m.role !== 'user') continue;
    // A tool-calling turn whose results never came: keep its text, drop the calls (or the turn if it had none).
    if (last?.toolCalls?.length) {
      if (last.content.trim()) delete last.toolCalls;
      else out.pop();
    }
    const prev = out.at(-1);
    if (prev && prev.role === m.role) {
      prev.content = [prev.content, m.content].filter((s) => s.trim()).join('\n\n');
      if (m.images?.length) prev.images = [...(prev.images ?? []), ...m.images];
      if (calls) prev.toolCalls = calls;
      continue;
    }
    const t: Turn = { role: m.role, content: m.content };
    if (m.images?.length) t.images = [...m.images];
    if (calls) t.toolCalls = calls;
    out.push(t);
  }
  // A trailing tool-calling turn without its results: the same rule.
  const tail = out.at(-1);
  if (tail?.toolCalls?.length) {
    if (tail.content.trim()) delete tail.toolCalls;
    else out.pop();
  }
  // One system message: strict chat templates (Mistral's on vLLM) refuse a second one, so the context follows the
  // prompt in the same message.
  const head = [system, opts.context].filter((s): s is string => !!s).join('\n\n');
  return head ? [{ role: 'system', content: head }, ...out] : out;
}

/**
 * The last `max` turns that still follow the rule: the system turns kept (the prompt, the documents' context), and
 * the window starting at a user turn (a cut never leaves tool results or an answer without what they answer).
 */
export function fitTurns(turns: Turn[], max: number): Turn[] {
  const lead = turns.findIndex((t) => t.role !== 'system');
  const sys = turns.slice(0, lead < 0 ? turns.length : lead);
  let rest = turns.slice(sys.length);
  if (rest.length + sys.length <= max) return turns;
  rest = rest.slice(rest.length - (max - sys.length));
  const firstUser = rest.findIndex((t) => t.role === 'user');
  return [...sys, ...(firstUser < 0 ? [] : rest.slice(firstUser))];
}
