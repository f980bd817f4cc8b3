import type { Message as OllamaMessage } from 'ollama';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { Turn } from '../chat/replies/turns';

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

/** The image types a base64 attachment starts with (its first bytes, base64-encoded); PNG when none matches. */
const IMAGE_TYPES: [prefix: string, type: string][] = [
  ['/9j/', 'image/jpeg'],
  ['iVBORw0KGgo', 'image/png'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

/** An attached image (bare base64, as the chat keeps it) as the data URL an OpenAI `image_url` part takes. */
function imageUrl(b64: string): string {
  const type = IMAGE_TYPES.find(([prefix]) => b64.startsWith(prefix))?.[1] ?? 'image/png';
  return `data:${type};base64,${b64}`;
}

/**
 * Turns as OpenAI-compatible APIs take them (tool calls with ids and JSON-string arguments). With `images`, a turn's
 * attached images go as `image_url` content parts after its text; without, they are left out (the model does not
 * take them, or the server does not say it does).
 */
export function toOpenAIMessages(turns: Turn[], opts: { images?: boolean } = {}): Record<string, unknown>[] {
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
    if (opts.images && t.images?.length)
      return {
        role: t.role,
        content: [
          ...(t.content ? [{ type: 'text', text: t.content }] : []),
          ...t.images.map((b64) => ({ type: 'image_url', image_url: { url: imageUrl(b64) } })),
        ],
      };
    return { role: t.role, content: t.content };
  });
}
