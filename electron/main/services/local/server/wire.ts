import { z } from 'zod';
import type { Tool } from 'ollama';
import type { ToolCall } from '@shared/contract/chat-message';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { Turn } from '../../chat/replies/turns';
import type { ReplyFormat, ToolChoice } from '../../engines/types';
import { HttpError } from './http';
import { MAX_MESSAGES, MAX_TOOLS, TOO_MANY_MESSAGES, TOO_MANY_TOOLS, TOOL_TOO_LARGE, toolFits } from './request-limits';

// OpenAI's chat and embedding requests as the local server takes them: lenient about fields it does not use (the
// clients send many), strict about the ones it does, so a wrong value is a 400 that says which field.

const textPart = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
const imagePart = z
  .object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }).passthrough() })
  .passthrough();
const content = z.union([z.string(), z.array(z.union([textPart, imagePart])), z.null()]).optional();

const toolCall = z
  .object({
    id: z.string().max(128).optional(),
    type: z.literal('function').optional(),
    function: z.object({ name: z.string().max(128), arguments: z.string().max(100_000) }).passthrough(),
  })
  .passthrough();

const message = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
    content,
    reasoning_content: z.string().nullish(),
    tool_calls: z.array(toolCall).max(128).nullish(),
    tool_call_id: z.string().max(128).optional(),
    name: z.string().max(128).optional(),
  })
  .passthrough();

const tool = z
  .object({
    type: z.literal('function'),
    function: z
      .object({
        name: z.string().min(1).max(128),
        description: z.string().max(10_000).optional(),
        parameters: z.record(z.string(), z.unknown()).optional(),
      })
      .passthrough(),
  })
  .passthrough()
  .refine(toolFits, TOOL_TOO_LARGE);

const responseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }).passthrough(),
  z.object({ type: z.literal('json_object') }).passthrough(),
  z
    .object({
      type: z.literal('json_schema'),
      json_schema: z
        .object({
          name: z.string().max(64).optional(),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullish(),
        })
        .passthrough(),
    })
    .passthrough(),
]);

const toolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1).max(128) }) }).passthrough(),
]);

/** The fields chat and text completions share: the model, streaming, sampling, the reply's format, `ttl`. */
export const commonFields = {
  model: z.string().min(1).max(1024),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).passthrough().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(16)]).nullish(),
  /** One choice per request; more is refused in words rather than answered with one. */
  n: z.number().int().nullish(),
  response_format: responseFormat.nullish(),
  /** LM Studio's: seconds the model may stay idle after this request before it unloads. */
  ttl: z.number().int().min(1).max(31_536_000).nullish(),
};
type Common = { [K in keyof typeof commonFields]?: z.infer<(typeof commonFields)[K]> };

export const chatRequestSchema = z
  .object({
    ...commonFields,
    messages: z.array(message).min(1, 'send at least one message').max(MAX_MESSAGES, TOO_MANY_MESSAGES),
    max_completion_tokens: z.number().int().min(1).nullish(),
    logprobs: z.boolean().nullish(),
    top_logprobs: z.number().int().nullish(),
    tools: z.array(tool).max(MAX_TOOLS, TOO_MANY_TOOLS).nullish(),
    tool_choice: toolChoice.nullish(),
    /** llama-server's switch for thinking models; `reasoning_effort: "none"` says the same in OpenAI's words. */
    chat_template_kwargs: z.object({ enable_thinking: z.boolean().optional() }).passthrough().nullish(),
    reasoning_effort: z.string().nullish(),
  })
  .passthrough();
export type ChatRequest = z.infer<typeof chatRequestSchema>;

export const embeddingRequestSchema = z
  .object({
    model: z.string().min(1).max(1024),
    input: z.union([z.string().max(200_000), z.array(z.string().max(200_000)).min(1).max(256)]),
    encoding_format: z.enum(['float', 'base64']).optional(),
  })
  .passthrough();

/** The body against a schema, or a 400 naming the first field that is wrong. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue.path.length ? `'${issue.path.join('.')}': ` : '';
  throw new HttpError(400, `${where}${issue.message}`, 'invalid_request_error', 'invalid_value');
}

/** A message's text: a string, or its text parts joined (images go separately). */
function textOf(c: ChatRequest['messages'][number]['content']): string {
  if (typeof c === 'string') return c;
  if (!c) return '';
  return c
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('\n');
}

/** Attached images as the chat keeps them (bare base64): only `data:` URLs, since the server fetches nothing. */
function imagesOf(c: ChatRequest['messages'][number]['content']): string[] {
  if (!Array.isArray(c)) return [];
  return c.flatMap((p) => {
    if (p.type !== 'image_url') return [];
    const url = (p as { image_url: { url: string } }).image_url.url;
    const m = /^data:image\/[\w.+-]+;base64,(.+)$/s.exec(url);
    if (!m || !isBase64(m[1]))
      throw new HttpError(400, 'Images must be sent as data: URLs (base64).', 'invalid_request_error');
    return [m[1]];
  });
}

/** Standard base64 (RFC 4648, padded or not): what an image's bytes must arrive as, since the server fetches nothing. */
export function isBase64(s: string): boolean {
  return s.length > 0 && s.length % 4 !== 1 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);
}

/** A tool call's arguments as the chat keeps them: a JSON object, else kept raw (the call is answered with an error). */
export function parseArguments(text: string): Pick<ToolCall, 'arguments' | 'rawArguments'> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (v && typeof v === 'object' && !Array.isArray(v)) return { arguments: v as Record<string, unknown> };
  } catch {
    // kept raw below, as the chat keeps a call whose arguments are not a JSON object
  }
  return { arguments: {}, rawArguments: text };
}

/** OpenAI messages as the neutral turns every engine takes (tool results named after the call they answer). */
export function fromOpenAIMessages(messages: ChatRequest['messages']): Turn[] {
  const callNames = new Map<string, string>();
  return messages.map((m): Turn => {
    const role = m.role === 'developer' ? 'system' : m.role;
    const t: Turn = { role, content: textOf(m.content) };
    const images = imagesOf(m.content);
    if (images.length) t.images = images;
    if (m.role === 'assistant' && m.tool_calls?.length) {
      t.toolCalls = m.tool_calls.map((c) => {
        if (c.id) callNames.set(c.id, c.function.name);
        return {
          ...(c.id ? { id: c.id } : {}),
          name: c.function.name,
          ...parseArguments(c.function.arguments),
        };
      });
    }
    if (m.role === 'tool') {
      if (m.tool_call_id) t.toolCallId = m.tool_call_id;
      const name = m.name ?? (m.tool_call_id ? callNames.get(m.tool_call_id) : undefined);
      if (name) t.toolName = name;
    }
    return t;
  });
}

/** What the request asks that this server does not offer, as a 400 that says what to change. */
export function unsupported(r: ChatRequest): HttpError | undefined {
  return oneChoice(r) ?? chatLogprobs(r);
}

/** `n` above 1, refused in words. */
export function oneChoice(r: Common): HttpError | undefined {
  if (r.n != null && r.n !== 1)
    return new HttpError(
      400,
      `n=${r.n} is not offered: this server answers one choice per request (n=1). Send ${r.n} requests instead.`,
      'invalid_request_error',
      'unsupported_value',
    );
  return undefined;
}

function chatLogprobs(r: ChatRequest): HttpError | undefined {
  if (r.logprobs || r.top_logprobs)
    return new HttpError(
      400,
      'Log probabilities are not offered by this server: leave logprobs and top_logprobs out.',
      'invalid_request_error',
      'unsupported_value',
    );
  return undefined;
}

/** The request's sampling fields as the chat's parameters. */
export function toParams(
  r: Common & Partial<Pick<ChatRequest, 'max_completion_tokens' | 'chat_template_kwargs' | 'reasoning_effort'>>,
): ChatParams {
  const p: ChatParams = {};
  if (r.temperature != null) p.temperature = r.temperature;
  if (r.top_p != null) p.top_p = r.top_p;
  const max = r.max_completion_tokens ?? r.max_tokens;
  if (max != null) p.max_tokens = Math.min(max, 1_000_000);
  if (r.seed != null) p.seed = r.seed;
  if (r.stop != null) p.stop = typeof r.stop === 'string' ? [r.stop] : r.stop;
  const think = r.chat_template_kwargs?.enable_thinking;
  if (think !== undefined) p.think = think;
  else if (r.reasoning_effort === 'none') p.think = false;
  return p;
}

export function toTools(r: ChatRequest): Tool[] | undefined {
  return r.tools?.length ? (r.tools as unknown as Tool[]) : undefined;
}

/** `response_format` as the engine's reply format; `text` (or none) is no constraint. */
export function toFormat(r: Common): ReplyFormat | undefined {
  const f = r.response_format;
  if (!f || f.type === 'text') return undefined;
  if (f.type === 'json_schema' && f.json_schema.schema) return { type: 'json_schema', schema: f.json_schema.schema };
  return { type: 'json' };
}

export function toToolChoice(r: ChatRequest): ToolChoice | undefined {
  const c = r.tool_choice;
  if (!c) return undefined;
  return typeof c === 'string' ? c : { name: c.function.name };
}
