import { timeoutFetch } from '../http/timeout-fetch';
import { sseData, STREAM_LIMITS, StreamLimit, type StreamLimits } from './sse-data';

/**
 * The one OpenAI-protocol streaming client, for the Hugging Face router and the user's endpoints alike: a POST to
 * `<baseUrl>/chat/completions` with `stream: true`, read as server-sent events up to `data: [DONE]`. Written on
 * fetch rather than taken from a library so that what local servers add is not lost: llama.cpp's `timings`,
 * `delta.reasoning_content` (llama.cpp, LM Studio) and vLLM's `delta.reasoning`, the `usage` chunk that
 * `stream_options.include_usage` asks for, and a stream that ends without [DONE] (a cut, not a reply).
 */
export interface OpenAIStreamRequest {
  /** The OpenAI base URL, `/v1` included (e.g. http://127.0.0.1:8080/v1). */
  baseUrl: string;
  /** The key-bound fetch: it alone puts a key on the request (net/bound-fetch.ts). */
  fetch: typeof fetch;
  /** The request body but `stream` and `stream_options`, which are always set. */
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  signal: AbortSignal;
  /** How long to wait for the response headers. */
  timeoutMs: number;
  /** Caps on the body once it streams (STREAM_LIMITS by default; tests set small ones). */
  limits?: Partial<StreamLimits>;
}

export interface ToolCallFragment {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

/** llama.cpp's per-reply figures (server-task.cpp `result_timings`). */
export interface LlamaTimings {
  prompt_n?: number;
  prompt_ms?: number;
  prompt_per_second?: number;
  predicted_n?: number;
  predicted_ms?: number;
  predicted_per_second?: number;
}

export interface OpenAIDelta {
  content?: string;
  thinking?: string;
  finishReason?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  timings?: LlamaTimings;
  /** Fragments of tool calls: the first of each index names it, the rest add pieces of its JSON arguments. */
  toolCalls?: ToolCallFragment[];
}

/**
 * The server answered, but not with a reply: an HTTP error status, an error event inside the stream (`midStream`,
 * status 200), or a body that is not an OpenAI event stream (`notOpenAI`: an HTML page, a JSON error on 200).
 * `httpResponse` has the shape the router's error messages read.
 */
export class OpenAIHttpError extends Error {
  readonly httpResponse: { status: number; body: unknown };
  constructor(
    message: string,
    status: number,
    body: unknown,
    readonly kind: 'status' | 'midStream' | 'notOpenAI',
    readonly contentType = '',
  ) {
    super(message);
    this.name = 'OpenAIHttpError';
    this.httpResponse = { status, body };
  }
}

/** The stream ended before `data: [DONE]` and before any finish_reason: the connection was lost. */
export class StreamCut extends Error {
  constructor() {
    // The word undici uses for a body cut off, so one test of the message covers both.
    super('terminated');
    this.name = 'StreamCut';
  }
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.slice(0, 2000);
  }
}

/** A chunk's first choice and its delta, as every server here sends them. */
interface Chunk {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  timings?: LlamaTimings;
  error?: unknown;
}

function toDelta(chunk: Chunk): OpenAIDelta {
  const choice = chunk.choices?.[0];
  const delta = choice?.delta ?? {};
  const out: OpenAIDelta = {};
  if (delta.content) out.content = delta.content;
  const thinking = delta.reasoning_content ?? delta.reasoning;
  if (thinking) out.thinking = thinking;
  if (Array.isArray(delta.tool_calls) && delta.tool_calls.length)
    out.toolCalls = delta.tool_calls.map((t, i) => ({
      index: typeof t.index === 'number' ? t.index : i,
      ...(t.id ? { id: t.id } : {}),
      ...(t.function?.name ? { name: t.function.name } : {}),
      ...(typeof t.function?.arguments === 'string' ? { arguments: t.function.arguments } : {}),
    }));
  if (choice?.finish_reason) out.finishReason = choice.finish_reason;
  if (chunk.usage) out.usage = chunk.usage;
  if (chunk.timings && typeof chunk.timings === 'object') out.timings = chunk.timings;
  return out;
}

/** One streaming chat completion, delta by delta. Throws OpenAIHttpError, StreamCut, or what fetch threw. */
export async function* openAIStream(req: OpenAIStreamRequest): AsyncGenerator<OpenAIDelta> {
  const url = `${req.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const res = await timeoutFetch(req.timeoutMs, req.fetch)(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...req.headers },
    body: JSON.stringify({ ...req.body, stream: true, stream_options: { include_usage: true } }),
    signal: req.signal,
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok) throw new OpenAIHttpError(`HTTP ${res.status}`, res.status, await readBody(res), 'status', type);
  if (!/^text\/event-stream/i.test(type) || !res.body)
    throw new OpenAIHttpError('not an event stream', res.status, await readBody(res), 'notOpenAI', type);
  const limits = { ...STREAM_LIMITS, ...req.limits };
  let finished = false;
  let replyChars = 0;
  for await (const data of sseData(res.body as unknown as AsyncIterable<Uint8Array>, req.signal, limits)) {
    if (data.trim() === '[DONE]') return;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      throw new OpenAIHttpError('an event that is not JSON', res.status, data.slice(0, 300), 'notOpenAI', type);
    }
    if (!chunk || typeof chunk !== 'object')
      throw new OpenAIHttpError('an event that is not a chunk', res.status, data.slice(0, 300), 'notOpenAI', type);
    if (chunk.error !== undefined && chunk.error !== null)
      throw new OpenAIHttpError('an error event', res.status, chunk, 'midStream', type);
    const delta = toDelta(chunk);
    replyChars += (delta.content?.length ?? 0) + (delta.thinking?.length ?? 0);
    for (const t of delta.toolCalls ?? []) replyChars += t.arguments?.length ?? 0;
    // Before the delta is passed on: the reply keeps what came within the cap.
    if (replyChars > limits.maxReplyChars) throw new StreamLimit('reply', limits.maxReplyChars);
    if (delta.finishReason) finished = true;
    yield delta;
  }
  // Some servers close without [DONE] after the last chunk; without a finish reason the reply was cut short.
  if (!finished) throw new StreamCut();
}
