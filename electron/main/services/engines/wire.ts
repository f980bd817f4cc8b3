import type { Message as OllamaMessage } from 'ollama';
import type { ChatParams } from '@shared/contract/chat';
import type { Turn } from '../chat/turns';

/** A conversation's parameters as Ollama's model options (the request and "Open as code" use the same). */
export function ollamaOptions(p: ChatParams): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (p.temperature !== undefined) options.temperature = p.temperature;
  if (p.top_p !== undefined) options.top_p = p.top_p;
  if (p.max_tokens !== undefined) options.num_predict = p.max_tokens;
  if (p.num_ctx !== undefined) options.num_ctx = p.num_ctx;
  if (p.seed !== undefined) options.seed = p.seed;
  if (p.stop?.length) options.stop = p.stop;
  return options;
}

/** A conversation's parameters as OpenAI's chat completion fields (num_ctx is the server's to set, not the request's). */
export function openAIParams(p: ChatParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.temperature !== undefined) out.temperature = p.temperature;
  if (p.top_p !== undefined) out.top_p = p.top_p;
  if (p.max_tokens !== undefined) out.max_tokens = p.max_tokens;
  if (p.seed !== undefined) out.seed = p.seed;
  if (p.stop?.length) out.stop = p.stop;
  return out;
}

/** Turns as Ollama's /api/chat takes them (tool calls with object arguments, results named by tool). */
export function toOllamaMessages(turns: Turn[]): OllamaMessage[] {
  return turns.map((t) => {
    const om: OllamaMessage = { role: t.role, content: t.content };
    if (t.images?.length) om.images = t.images;
    if (t.toolCalls?.length)
      om.tool_calls = t.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
    if (t.toolName) om.tool_name = t.toolName;
    return om;
  });
}

/**
 * Turns as OpenAI-compatible APIs take them (tool calls with ids and JSON-string arguments). Images are left out:
 * neither the router nor an endpoint says which models take them.
 */
export function toOpenAIMessages(turns: Turn[]): Record<string, unknown>[] {
  let n = 0;
  const pending: string[] = [];
  return turns.map((t) => {
    if (t.toolCalls?.length) {
      const calls = t.toolCalls.map((c) => ({
        id: c.id ?? `call_${n++}`,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      }));
      pending.splice(0, pending.length, ...calls.map((c) => c.id));
      return { role: 'assistant', content: t.content, tool_calls: calls };
    }
    if (t.role === 'tool')
      return { role: 'tool', tool_call_id: t.toolCallId ?? pending.shift() ?? '', content: t.content };
    return { role: t.role, content: t.content };
  });
}
