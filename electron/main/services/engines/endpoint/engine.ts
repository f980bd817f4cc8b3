import type { ChatParams } from '@shared/contract/chat-conversation';
import { AppError } from '@shared/errors';
import { streamTurn, type Target } from '../openai';
import type { StreamLimits } from '../sse-data';
import type { ChatEngine, TurnRequest, TurnResult, TurnSink } from '../types';
import { endpointError } from './errors';
import type { EndpointConnection } from './port';

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
    private readonly opts: { timeoutMs?: number; streamLimits?: Partial<StreamLimits> } = {},
  ) {}

  async turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
    if (!req.model) throw new AppError('invalid_input', 'Choose a model for this conversation first.');
    const vision = req.turns.some((t) => t.images?.length) && (await this.takesImages(req.model));
    const target: Target = {
      baseUrl: this.conn.baseUrl,
      fetch: this.conn.fetch,
      // A local server may load the model before it sends its headers.
      timeoutMs: this.opts.timeoutMs ?? 120_000,
      limits: this.opts.streamLimits,
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
