import { z } from 'zod';
import type { Tool } from 'ollama';
import type { ToolCall } from '@shared/contract/chat-message';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { Turn } from '../../../chat/replies/turns';
import type { ReplyFormat, ToolChoice } from '../../../engines/types';
import { HttpError } from '../http';
import {
  MAX_MESSAGES,
  MAX_TOOLS,
  TOO_MANY_MESSAGES,
  TOO_MANY_TOOLS,
  TOOL_TOO_LARGE,
  toolFits,
} from '../request-limits';
import { isBase64, parseArguments } from '../wire';

// Anthropic's Messages request (POST /v1/messages) as the local server takes it, and its conversion to the neutral
// turns every engine takes. Lenient about fields it does not use (cache_control, citations, metadata…), strict about
// the ones it does, so a wrong value is a 400 naming the field and what to send instead.

/** A string is one text block (Anthropic takes either for `system`, `content` and a tool result's `content`). */
const blocksOf = (v: unknown) => (typeof v === 'string' ? [{ type: 'text', text: v }] : v);
const typeOf = (v: unknown) => JSON.stringify((v as { type?: unknown } | null)?.type);

const textBlock = z.object({ type: z.literal('text'), text: z.string() }).passthrough();

const imageBlock = z
  .object({
    type: z.literal('image'),
    source: z
      .object({
        type: z.literal('base64', {
          error: (iss) =>
            `image sources of type ${JSON.stringify(iss.input)} are not offered: this server fetches nothing, so send ` +
            `the bytes as {"type": "base64", "media_type": "image/png", "data": "<base64>"}`,
        }),
        media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp'], {
          error: 'send image/jpeg, image/png, image/gif or image/webp',
        }),
        data: z
          .string()
          .refine(isBase64, "is not base64: send the image's bytes base64-encoded (without a data: prefix)"),
      })
      .passthrough(),
  })
  .passthrough();

const toolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1).max(128),
    content: z
      .preprocess(
        blocksOf,
        z
          .array(
            z.discriminatedUnion('type', [textBlock, imageBlock], {
              error: (iss) =>
                iss.code === 'invalid_union'
                  ? `a tool result holds text or image blocks, not ${typeOf(iss.input)}: send its output as text`
                  : undefined,
            }),
          )
          .max(1000),
      )
      .optional(),
    is_error: z.boolean().optional(),
  })
  .passthrough();

const block = z.discriminatedUnion(
  'type',
  [
    textBlock,
    imageBlock,
    z
      .object({
        type: z.literal('tool_use'),
        id: z.string().min(1).max(128),
        name: z.string().min(1).max(128),
        input: z.unknown(),
      })
      .passthrough(),
    toolResultBlock,
    // A thought the model wrote earlier: taken, and not sent back to the model (the engine's turns carry none).
    z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }).passthrough(),
    z.object({ type: z.literal('redacted_thinking') }).passthrough(),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? `content blocks of type ${typeOf(iss.input)} are not offered: send text, image (base64), tool_use, ` +
          'tool_result or thinking blocks'
        : undefined,
  },
);
type Block = z.infer<typeof block>;

const message = z
  .object({
    role: z.enum(['user', 'assistant', 'system'], { error: 'send "user" or "assistant"' }),
    content: z.preprocess(
      blocksOf,
      z.array(block, { error: 'send a string or an array of content blocks' }).max(10_000),
    ),
  })
  .passthrough();

const tool = z
  .object({
    type: z
      .literal('custom', {
        error: (iss) =>
          `${JSON.stringify(iss.input)} is one of Anthropic's server tools, which this server does not run: send ` +
          'custom tools ({"name", "description", "input_schema"}) and run them yourself',
      })
      .nullish(),
    name: z.string().min(1).max(128),
    description: z.string().max(100_000).optional(),
    input_schema: z.record(z.string(), z.unknown(), { error: 'send the JSON Schema of the tool input (an object)' }),
  })
  .passthrough()
  .refine(toolFits, TOOL_TOO_LARGE);

const toolChoice = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('auto') }).passthrough(),
    z.object({ type: z.literal('any') }).passthrough(),
    z.object({ type: z.literal('tool'), name: z.string().min(1).max(128) }).passthrough(),
    z.object({ type: z.literal('none') }).passthrough(),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? 'send {"type": "auto"}, {"type": "any"}, {"type": "tool", "name": …} or {"type": "none"}'
        : undefined,
  },
);

export const messagesRequestSchema = z
  .object({
    model: z.string().min(1).max(1024),
    max_tokens: z
      .number({
        error: (iss) =>
          iss.input === undefined
            ? 'is required: send the most tokens the reply may have, e.g. "max_tokens": 1024'
            : 'send a whole number of tokens, e.g. 1024',
      })
      .int()
      .min(1),
    messages: z.array(message).min(1, 'send at least one message').max(MAX_MESSAGES, TOO_MANY_MESSAGES),
    system: z.preprocess(blocksOf, z.array(textBlock, { error: 'send a string or text blocks' }).max(1000)).optional(),
    stream: z.boolean().nullish(),
    temperature: z.number().min(0).max(1).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    /** Refused when set (see `unsupported`): the engine has no top-k sampler to hand it to. */
    top_k: z.number().nullish(),
    stop_sequences: z.array(z.string().min(1).max(200)).max(16).nullish(),
    tools: z.array(tool).max(MAX_TOOLS, TOO_MANY_TOOLS).nullish(),
    tool_choice: toolChoice.nullish(),
    thinking: z
      .object({
        type: z.enum(['enabled', 'disabled', 'adaptive', 'between_tools'], {
          error: 'send {"type": "enabled", "budget_tokens": …} or {"type": "disabled"}',
        }),
      })
      .passthrough()
      .nullish(),
    /** Structured output (`format`: a JSON schema the grammar enforces); `effort` is ignored. */
    output_config: z
      .object({
        format: z
          .object({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })
          .passthrough()
          .nullish(),
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

/** `count_tokens` takes a message as it would be sent, without `max_tokens`. */
export const countRequestSchema = messagesRequestSchema.partial({ max_tokens: true });

/** What the request asks that this server does not offer, as a 400 that says what to change. */
export function unsupported(r: MessagesRequest): HttpError | undefined {
  if (r.top_k != null)
    return new HttpError(
      400,
      'top_k: not offered by this server (its engine samples with temperature and top_p): leave top_k out.',
    );
  return undefined;
}

const textOf = (blocks: Block[]) =>
  blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');

const imagesOf = (blocks: Block[]) => blocks.flatMap((b) => (b.type === 'image' ? [b.source.data] : []));

/** A tool_use block's input as the chat keeps a call's arguments (a JSON object, else kept raw). */
const callOf = (b: Extract<Block, { type: 'tool_use' }>): ToolCall => ({
  id: b.id,
  name: b.name,
  ...parseArguments(JSON.stringify(b.input ?? {})),
});

const refuse = (at: string, message: string) => new HttpError(400, `'${at}': ${message}`);

/**
 * Anthropic's system and messages as the neutral turns: the system text first; a user message's tool results become
 * tool turns (before its text, as the engine pairs results with the calls right before them), named after the
 * tool_use they answer, which must be in the assistant message just before; thoughts sent back are left out.
 */
export function toTurns(r: Pick<MessagesRequest, 'messages' | 'system'>): Turn[] {
  const turns: Turn[] = [];
  const system = (r.system ?? []).map((b) => b.text).join('\n');
  if (system) turns.push({ role: 'system', content: system });
  /** The tool_use blocks of the assistant message just before, still unanswered: id → name. */
  let open = new Map<string, string>();
  let openAt = -1;
  const unanswered = () =>
    refuse(
      `messages.${openAt}`,
      `tool_use ${[...open.keys()].map((id) => JSON.stringify(id)).join(', ')} has no tool_result in the next user ` +
        'message: answer each tool_use with a tool_result block (same tool_use_id) in the user message right after it.',
    );
  r.messages.forEach((m, i) => {
    const blocks = m.content;
    if (m.role !== 'user' && open.size) throw unanswered();
    blocks.forEach((b, j) => {
      if (b.type === 'tool_result' && m.role !== 'user')
        throw refuse(`messages.${i}.content.${j}`, 'tool_result blocks go in a user message.');
      if (b.type === 'tool_use' && m.role !== 'assistant')
        throw refuse(`messages.${i}.content.${j}`, 'tool_use blocks go in an assistant message.');
    });
    if (m.role === 'system') {
      turns.push({ role: 'system', content: textOf(blocks) });
      return;
    }
    if (m.role === 'assistant') {
      const calls = blocks.flatMap((b) => (b.type === 'tool_use' ? [callOf(b)] : []));
      const t: Turn = { role: 'assistant', content: textOf(blocks) };
      if (calls.length) t.toolCalls = calls;
      turns.push(t);
      open = new Map(calls.map((c) => [c.id!, c.name]));
      openAt = i;
      return;
    }
    blocks.forEach((b, j) => {
      if (b.type !== 'tool_result') return;
      const name = open.get(b.tool_use_id);
      if (name === undefined)
        throw refuse(
          `messages.${i}.content.${j}.tool_use_id`,
          `${JSON.stringify(b.tool_use_id)} matches no tool_use block of the assistant message right before: send ` +
            "each tool_result after the assistant message that holds its tool_use, with that block's id.",
        );
      open.delete(b.tool_use_id);
      const result = b.content ?? [];
      const text = textOf(result);
      // The engine's turns have no error flag: the model reads it in words.
      const t: Turn = { role: 'tool', content: b.is_error ? `Error: ${text}` : text, toolCallId: b.tool_use_id };
      t.toolName = name;
      const images = imagesOf(result);
      if (images.length) t.images = images;
      turns.push(t);
    });
    if (open.size) throw unanswered();
    const text = textOf(blocks);
    const images = imagesOf(blocks);
    if (text || images.length || !blocks.some((b) => b.type === 'tool_result')) {
      const t: Turn = { role: 'user', content: text };
      if (images.length) t.images = images;
      turns.push(t);
    }
  });
  if (open.size) throw unanswered();
  return turns;
}

/**
 * The offered tools, as OpenAI function tools (what the engines take), and the choice among them. `none` offers no
 * tools at all, which is what it means for a model that cannot be constrained.
 */
export function toTools(r: Pick<MessagesRequest, 'tools' | 'tool_choice'>): { tools?: Tool[]; toolChoice: ToolChoice } {
  const c = r.tool_choice;
  const choice: ToolChoice =
    c?.type === 'any' ? 'required' : c?.type === 'tool' ? { name: c.name } : c?.type === 'none' ? 'none' : 'auto';
  if (typeof choice === 'object' && !r.tools?.some((t) => t.name === choice.name))
    throw refuse('tool_choice.name', `${JSON.stringify(choice.name)} is not one of the tools: name one of them.`);
  if (choice === 'none' || !r.tools?.length) return { toolChoice: choice };
  const tools = r.tools.map((t): Tool => ({
    type: 'function',
    function: {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      parameters: t.input_schema as Tool['function']['parameters'],
    },
  }));
  return { tools, toolChoice: choice };
}

/** `output_config.format` as the engine's reply format. */
export function toFormat(r: MessagesRequest): ReplyFormat | undefined {
  const f = r.output_config?.format;
  return f ? { type: 'json_schema', schema: f.schema } : undefined;
}

/** The request's sampling fields as the chat's parameters; the engine names the stop sequence that ended a reply. */
export function toParams(r: MessagesRequest): ChatParams {
  const p: ChatParams = { max_tokens: Math.min(r.max_tokens, 1_000_000) };
  if (r.stop_sequences?.length) p.stop = r.stop_sequences;
  if (r.temperature != null) p.temperature = r.temperature;
  if (r.top_p != null) p.top_p = r.top_p;
  // `adaptive` and `between_tools` leave it to the model's own default.
  if (r.thinking?.type === 'enabled') p.think = true;
  else if (r.thinking?.type === 'disabled') p.think = false;
  return p;
}
