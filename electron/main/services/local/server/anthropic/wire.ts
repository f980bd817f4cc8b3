import { z } from 'zod';
import { HttpError } from '../http';
import {
  MAX_MESSAGES,
  MAX_TOOLS,
  TOO_MANY_MESSAGES,
  TOO_MANY_TOOLS,
  TOOL_TOO_LARGE,
  toolFits,
} from '../request-limits';
import { isBase64 } from '../wire';

// Anthropic's Messages request (POST /v1/messages) as the local server takes it; engine-request.ts converts it to the
// neutral turns every engine takes. Lenient about fields it does not use (cache_control, citations, metadata…), strict
// about the ones it does, so a wrong value is a 400 naming the field and what to send instead.

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
export type Block = z.infer<typeof block>;

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
