import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ChatFigures, ToolCall } from '@shared/contract/chat-message';
import type { ChatEngine, TurnResult } from '../../engines/types';
import { failOpenAI, HttpError, modelNotFound, openEventStream, sendEvent, sendJson, toHttpError } from './http';
import type { RequestRecord } from './request-log';
import { fromOpenAIMessages, toFormat, toParams, toToolChoice, toTools, type ChatRequest } from './wire';

/** Requests that may wait for a model's free sequence; past them the server answers 503 with Retry-After. */
export const QUEUE_LIMIT = 8;

/** OpenAI's finish reason for a finished turn: its tool calls, a cut at max_tokens, or a stop. */
function finishReason(r: TurnResult): 'stop' | 'length' | 'tool_calls' {
  if (r.toolCalls?.length) return 'tool_calls';
  return /length|max/i.test(r.figures?.doneReason ?? '') ? 'length' : 'stop';
}

export function usageOf(figures: ChatFigures | undefined, pieces: number) {
  const prompt = figures?.promptTokens ?? 0;
  // Without the engine's count, each streamed piece is about a token (node-llama-cpp sends one per token).
  const completion = figures?.evalTokens ?? pieces;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const wireCall = (c: ToolCall, i: number) => ({
  id: c.id ?? `call_${i}`,
  type: 'function' as const,
  function: { name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments) },
});

/**
 * One chat completion through the chat's own engine (the same conversion and template as a chat in the app),
 * streamed as `chat.completion.chunk` events or answered as one `chat.completion`. Headers wait for the first
 * piece of the reply, so a failure before it (a model that will not load) is a plain HTTP error; after it, an
 * error event ends the stream. `signal` aborts when the client goes away.
 */
export async function chatCompletion(
  engine: Pick<ChatEngine, 'turn'>,
  body: ChatRequest,
  res: ServerResponse,
  signal: AbortSignal,
  record?: RequestRecord,
): Promise<void> {
  const id = `chatcmpl-${randomBytes(16).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: 'hubdesk',
    choices,
    ...extra,
  });
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

  const stream = body.stream === true;
  let text = '';
  let thinking = '';
  let pieces = 0;
  let headersSent = false;
  const open = () => {
    if (headersSent) return;
    headersSent = true;
    openEventStream(res);
    sendEvent(res, delta({ role: 'assistant', content: null }));
  };
  const sink = {
    get started() {
      return pieces > 0;
    },
    add(content: string | undefined, think: string | undefined, tokens = 1) {
      if (!content && !think) return;
      pieces += tokens;
      record?.reply(content ?? '');
      if (!stream) {
        text += content ?? '';
        thinking += think ?? '';
        return;
      }
      if (signal.aborted || res.destroyed) return;
      open();
      if (think) sendEvent(res, delta({ reasoning_content: think }));
      if (content) sendEvent(res, delta({ content }));
    },
  };

  let result: TurnResult;
  try {
    result = await engine.turn(
      {
        model,
        turns: fromOpenAIMessages(body.messages),
        tools: toTools(body),
        params: toParams(body),
        signal,
        maxQueue: QUEUE_LIMIT,
        format: toFormat(body),
        toolChoice: toToolChoice(body),
        // A client is told its prompt is too long; the app's own chat may drop old turns, a client's never are.
        exactContext: true,
        ...(body.ttl != null ? { ttl: body.ttl } : {}),
      },
      sink,
    );
  } catch (e) {
    if (signal.aborted || res.destroyed) return void res.destroy();
    const err = toHttpError(e);
    if (record) record.error = err.message;
    return failOpenAI(res, err, headersSent);
  }
  if (signal.aborted || res.destroyed) return;
  const finish = finishReason(result);
  const calls = (result.toolCalls ?? []).map(wireCall);
  const usage = usageOf(result.figures, pieces);
  record?.measured(usage, result.figures);
  if (!stream) {
    return sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      system_fingerprint: 'hubdesk',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text || (calls.length ? null : ''),
            ...(thinking ? { reasoning_content: thinking } : {}),
            ...(calls.length ? { tool_calls: calls } : {}),
          },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage,
    });
  }
  open();
  calls.forEach((c, index) => sendEvent(res, delta({ tool_calls: [{ index, ...c }] })));
  sendEvent(res, delta({}, finish));
  if (body.stream_options?.include_usage) sendEvent(res, chunk([], { usage }));
  res.end('data: [DONE]\n\n');
}

/** The request's model is one the library can run for chat, or a 404/400 saying why not. */
export function chatModelError(
  m: { embedding: boolean; reranker?: boolean } | undefined,
  id: string,
): HttpError | undefined {
  if (!m) return modelNotFound(id);
  if (m.reranker)
    return new HttpError(
      400,
      `"${id}" is a reranker: it scores documents for a query at /v1/rerank, and writes no text.`,
      'invalid_request_error',
      'model_not_supported',
    );
  if (m.embedding)
    return new HttpError(
      400,
      `"${id}" is an embedding model: use /v1/embeddings.`,
      'invalid_request_error',
      'model_not_supported',
    );
  return undefined;
}
