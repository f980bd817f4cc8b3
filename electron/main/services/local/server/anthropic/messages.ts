import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ChatEngine, TurnResult } from '../../../engines/types';
import { QUEUE_LIMIT } from '../completions';
import { openEventStream, sendJson, toHttpError } from '../http';
import type { RequestRecord } from '../request-log';
import { anthropicError, sendAnthropicError } from './errors';
import { toFormat, toParams, toTools, toTurns } from './engine-request';
import type { MessagesRequest } from './wire';

type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

/** One server-sent event as Anthropic frames it: the event's name, then its JSON (which repeats the name as `type`). */
function sendEvent(res: ServerResponse, type: string, data: Record<string, unknown> = {}): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/**
 * The reply's content blocks as they grow: thinking and text pieces extend the last block of their kind or open the
 * next one, tool calls each take a block. `emit` streams each change as Anthropic's content_block events.
 */
class Content {
  readonly blocks: ContentBlock[] = [];
  private open = false;

  constructor(private readonly emit?: (type: string, data: Record<string, unknown>) => void) {}

  add(kind: 'text' | 'thinking', piece: string): void {
    const last = this.blocks.at(-1);
    if (!this.open || last?.type !== kind) {
      this.close();
      const block: ContentBlock =
        kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
      this.start(block);
    }
    const index = this.blocks.length - 1;
    const block = this.blocks[index];
    if (!piece) return;
    if (block.type === 'text') {
      block.text += piece;
      this.emit?.('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    } else if (block.type === 'thinking') {
      block.thinking += piece;
      this.emit?.('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
    }
  }

  /** A tool call: its input goes whole in one input_json_delta (the engine returns calls complete). */
  toolUse(block: Extract<ContentBlock, { type: 'tool_use' }>): void {
    this.close();
    this.start({ ...block, input: {} });
    const index = this.blocks.length - 1;
    this.blocks[index] = block;
    this.emit?.('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
    });
    this.close();
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    const index = this.blocks.length - 1;
    // A thought ends with its signature (Anthropic's clients expect one); this server signs nothing.
    if (this.blocks[index].type === 'thinking')
      this.emit?.('content_block_delta', { index, delta: { type: 'signature_delta', signature: '' } });
    this.emit?.('content_block_stop', { index });
  }

  private start(block: ContentBlock): void {
    this.blocks.push(block);
    this.open = true;
    this.emit?.('content_block_start', { index: this.blocks.length - 1, content_block: block });
  }
}

function stopReason(r: TurnResult, calls: number): StopReason {
  if (r.stopSequence !== undefined) return 'stop_sequence';
  if (calls) return 'tool_use';
  return /length|max/i.test(r.figures?.doneReason ?? '') ? 'max_tokens' : 'end_turn';
}

/**
 * One Anthropic message through the chat's own engine (the same conversion and template as a chat in the app),
 * streamed as Anthropic's events or answered as one `message`. As on the OpenAI route, headers wait for the first
 * piece, so a failure before it (a model that will not load, a full queue) is a plain HTTP error; after it, an
 * `error` event ends the stream. `signal` aborts when the client goes away.
 */
export async function createMessage(
  engine: Pick<ChatEngine, 'turn'>,
  body: MessagesRequest,
  res: ServerResponse,
  signal: AbortSignal,
  record?: RequestRecord,
): Promise<void> {
  const id = newId('msg_');
  const model = body.model;
  const stream = body.stream === true;
  let pieces = 0;
  let headersSent = false;
  const gone = () => signal.aborted || res.destroyed;
  const open = () => {
    if (headersSent) return;
    headersSent = true;
    openEventStream(res);
    // Input tokens are known only when the turn ends: message_delta carries them (as Anthropic's own may).
    sendEvent(res, 'message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  };
  const content = new Content(
    stream
      ? (type, data) => {
          if (gone()) return;
          open();
          sendEvent(res, type, data);
        }
      : undefined,
  );
  const sink = {
    get started() {
      return pieces > 0;
    },
    add(text: string | undefined, think: string | undefined, tokens = 1) {
      if (!text && !think) return;
      pieces += tokens;
      if (think) content.add('thinking', think);
      if (text) content.add('text', text);
      if (text) record?.reply(text);
    },
  };

  const { tools, toolChoice } = toTools(body);
  let result: TurnResult;
  try {
    result = await engine.turn(
      {
        model,
        turns: toTurns(body),
        tools,
        toolChoice,
        format: toFormat(body),
        params: toParams(body),
        signal,
        maxQueue: QUEUE_LIMIT,
        // As on the OpenAI route: a prompt too long for the context is refused, never cut.
        exactContext: true,
      },
      sink,
    );
  } catch (e) {
    if (gone()) return void res.destroy();
    const err = toHttpError(e);
    if (record) record.error = err.message;
    if (!headersSent) return sendAnthropicError(res, err);
    // Anthropic's way: an `error` event, then the stream ends without message_stop.
    sendEvent(res, 'error', { error: anthropicError(err).error });
    return void res.end();
  }
  if (gone()) return;
  const calls = result.toolCalls ?? [];
  for (const c of calls) content.toolUse({ type: 'tool_use', id: newId('toolu_'), name: c.name, input: c.arguments });
  // Never an empty content list: clients read content[0].
  if (!content.blocks.length) content.add('text', '');
  content.close();
  const stop_reason = stopReason(result, calls.length);
  const stop_sequence = result.stopSequence ?? null;
  const usage = {
    input_tokens: result.figures?.promptTokens ?? 0,
    output_tokens: result.figures?.evalTokens ?? pieces,
  };
  record?.measured({ prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens }, result.figures);
  if (!stream)
    return sendJson(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: content.blocks,
      stop_reason,
      stop_sequence,
      usage,
    });
  open();
  sendEvent(res, 'message_delta', { delta: { stop_reason, stop_sequence }, usage });
  sendEvent(res, 'message_stop');
  res.end();
}
