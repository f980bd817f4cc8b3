import { AppError } from '@shared/errors';
import { withRetry } from '../../http/retry';
import type { Logger } from '../../log';
import { streamTurn, type Target } from '../openai';
import type { ChatEngine, TurnRequest, TurnResult, TurnSink } from '../types';
import { httpStatusOf, providerError } from './errors';
import type { StreamLimits } from '../sse-data';

export interface RouterDeps {
  router: () => { routerUrl: string; billTo: string };
  /** The token bound to the router URL, if any: only checked here; `fetch` sends it. */
  hfToken: () => string | undefined;
  fetch: typeof fetch;
  log: Logger;
  timeoutMs?: number;
  retryBaseMs?: number;
  /** Caps on the streamed reply (sse-data.ts). */
  streamLimits?: Partial<StreamLimits>;
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
      limits: this.deps.streamLimits,
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
