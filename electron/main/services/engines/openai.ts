import type { ChatParams } from '@shared/contract/chat';
import { AppError } from '@shared/errors';
import { withRetry } from '../http/retry';
import type { Logger } from '../log';
import { endpointError } from './endpoint-errors';
import type { EndpointConnection } from './endpoint-port';
import { openAIFigures } from './figures';
import { openAIStream, type LlamaTimings, type OpenAIDelta } from './openai-stream';
import { httpStatusOf, providerError } from './router-errors';
import { ToolCallAssembler } from './tool-calls';
import type { ChatEngine, TurnRequest, TurnResult, TurnSink } from './types';
import { openAIParams, toOpenAIMessages } from './wire';

interface Target {
  baseUrl: string;
  fetch: typeof fetch;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** The request body's fields beside the messages and the stream flags. */
  body: Record<string, unknown>;
  /** Why the turns' images are left out (the reply's notice); undefined when they go as `image_url` parts. */
  noImages?: string;
}

/** One streamed OpenAI-protocol turn: text and thinking into the sink, tool calls put back together, figures. */
async function streamTurn(target: Target, req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
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

interface RouterDeps {
  router: () => { routerUrl: string; billTo: string };
  /** The token bound to the router URL, if any: only checked here; `fetch` sends it. */
  hfToken: () => string | undefined;
  fetch: typeof fetch;
  log: Logger;
  timeoutMs?: number;
  retryBaseMs?: number;
}

/**
 * Hosted models through the Hugging Face router (`<routerUrl>/v1`). A request that fails before its first token
 * with "not now" (429, 502, 503, 504) is retried with back-off: the router is a shared gateway whose hiccups pass.
 */
export class RouterEngine implements ChatEngine {
  readonly backend = 'provider' as const;
  readonly toolHistoryWithoutTools = false;

  constructor(
    private readonly deps: RouterDeps,
    /** `auto` lets the router choose; otherwise `model:provider` pins one. */
    private readonly provider: string,
  ) {}

  async turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
    const { routerUrl, billTo } = this.deps.router();
    const provider = this.provider || 'auto';
    const info = { routerUrl, model: req.model, provider, tools: req.tools };
    if (!this.deps.hfToken())
      throw new AppError(
        'unauthorized',
        'No Hugging Face token is set — set it in Settings to chat with hosted models.',
      );
    if (!req.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
    const target: Target = {
      baseUrl: `${routerUrl.replace(/\/+$/, '')}/v1`,
      fetch: this.deps.fetch,
      headers: billTo ? { 'X-HF-Bill-To': billTo } : undefined,
      timeoutMs: this.deps.timeoutMs ?? 30_000,
      body: { model: provider === 'auto' ? req.model : `${req.model}:${provider}` },
      noImages: 'Images were not sent: the Hugging Face router does not say which models take them.',
    };
    try {
      return await withRetry(() => streamTurn(target, req, sink), {
        statusOf: httpStatusOf,
        // Once tokens have arrived nothing is retried silently: the error ends the reply, keeping its text.
        retryable: () => !sink.started,
        onRetry: ({ attempt, waitMs, status }) => {
          req.onRetry?.({ attempt: attempt + 1, waitMs, reason: `HTTP ${status}` });
          this.deps.log.info('provider retry', { status, attempt, waitMs });
        },
        baseMs: this.deps.retryBaseMs,
        signal: req.signal,
      });
    } catch (e) {
      if (req.signal.aborted) throw new AppError('aborted', 'Stopped.');
      throw providerError(e, info);
    }
  }

  /** The router does not say what a model can do: tools are offered, and a refusal says to turn them off. */
  capabilities(): Promise<string[]> {
    return Promise.resolve([]);
  }

  toolsUnsupported(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
}

/** How `think` reaches a local server: the chat template's switch (llama.cpp and vLLM read it; others ignore it). */
function thinkFields(p: ChatParams): Record<string, unknown> {
  return p.think === undefined ? {} : { chat_template_kwargs: { enable_thinking: p.think } };
}

/**
 * One of the user's OpenAI-compatible servers (llama.cpp, LM Studio, vLLM…), through the fetch that carries its
 * key to its origin only. Nothing is retried silently: a local server that answers 503 is loading a model or
 * out of slots, which a few quick retries do not change, and a second request would queue behind the first on a
 * machine that serves one at a time; the message says what is wrong, and the reply offers Retry.
 */
export class EndpointEngine implements ChatEngine {
  readonly backend = 'endpoint' as const;
  readonly toolHistoryWithoutTools = false;

  constructor(
    private readonly conn: EndpointConnection,
    private readonly opts: { timeoutMs?: number } = {},
  ) {}

  async turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
    if (!req.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
    const vision = req.turns.some((t) => t.images?.length) && (await this.takesImages(req.model));
    const target: Target = {
      baseUrl: this.conn.baseUrl,
      fetch: this.conn.fetch,
      // A local server may load the model before it sends its headers.
      timeoutMs: this.opts.timeoutMs ?? 120_000,
      body: { model: req.model, ...thinkFields(req.params) },
      ...(vision
        ? {}
        : {
            noImages: `Images were not sent: ${this.conn.name} does not say ${req.model} takes images (LM Studio lists a vision model as such; llama-server says so when started with its --mmproj projector).`,
          }),
    };
    try {
      return await streamTurn(target, req, sink);
    } catch (e) {
      if (req.signal.aborted) throw new AppError('aborted', 'Stopped.');
      throw endpointError(e, { conn: this.conn, model: req.model, tools: !!req.tools, started: sink.started });
    }
  }

  /** Whether the endpoint lists the model as taking images (LM Studio `vlm`, llama.cpp `/props` modalities). */
  private async takesImages(model: string): Promise<boolean> {
    return (await this.conn.describe(model))?.vision === true;
  }

  /** It chats, tools are offered (a server that refuses them says so), and images where the server says so. */
  async capabilities(model: string): Promise<string[]> {
    return ['completion', 'tools', ...((await this.takesImages(model)) ? ['vision'] : [])];
  }

  toolsUnsupported(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
}
