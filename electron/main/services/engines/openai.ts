import { openAIFigures } from './figures';
import { openAIStream, type LlamaTimings, type OpenAIDelta } from './openai-stream';
import type { StreamLimits } from './sse-data';
import { ToolCallAssembler } from './tool-calls';
import type { TurnRequest, TurnResult, TurnSink } from './types';
import { openAIParams, toOpenAIMessages } from './wire';

// The OpenAI protocol's turn, shared by the router's and the endpoints' engines.

export interface Target {
  baseUrl: string;
  fetch: typeof fetch;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Caps on the streamed body (sse-data.ts). */
  limits?: Partial<StreamLimits>;
  /** The request body's fields beside the messages and the stream flags. */
  body: Record<string, unknown>;
  /** Why the turns' images are left out (the reply's notice); undefined when they go as `image_url` parts. */
  noImages?: string;
}

/** One streamed OpenAI-protocol turn: text and thinking into the sink, tool calls put back together, figures. */
export async function streamTurn(target: Target, req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
  const started = performance.now();
  let firstToken: number | undefined;
  let usage: OpenAIDelta['usage'];
  let timings: LlamaTimings | undefined;
  let finishReason: string | undefined;
  const calls = new ToolCallAssembler();
  for await (const d of openAIStream({
    baseUrl: target.baseUrl,
    fetch: target.fetch,
    headers: target.headers,
    timeoutMs: target.timeoutMs,
    limits: target.limits,
    signal: req.signal,
    body: {
      ...target.body,
      messages: toOpenAIMessages(req.turns, { images: !target.noImages }),
      ...openAIParams(req.params),
      ...(req.tools ? { tools: req.tools } : {}),
    },
  })) {
    if (firstToken === undefined && (d.content || d.thinking || d.toolCalls)) firstToken = performance.now();
    sink.add(d.content, d.thinking);
    if (d.toolCalls) calls.add(d.toolCalls);
    if (d.finishReason) finishReason = d.finishReason;
    if (d.usage) usage = d.usage;
    if (d.timings) timings = d.timings;
  }
  const figures = openAIFigures({ usage, timings, finishReason }, { started, firstToken, end: performance.now() });
  const toolCalls = calls.done();
  const dropped = target.noImages && req.turns.some((t) => t.images?.length);
  return { figures, ...(toolCalls.length ? { toolCalls } : {}), ...(dropped ? { notice: target.noImages } : {}) };
}
