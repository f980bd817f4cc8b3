import type { ConversationMeta } from '@shared/contract/chat';
import { AppError } from '@shared/errors';
import type { Logger } from '../log';
import type { OllamaService } from '../ollama/service';
import type { EndpointConnection, EndpointPort } from './endpoint-port';
import { OllamaEngine } from './ollama';
import { EndpointEngine, RouterEngine } from './openai';
import { LocalEngine, type LocalPort } from './local';
import type { ChatEngine } from './types';

export interface EngineOptions {
  ollama: OllamaService;
  log: Logger;
  router: () => { routerUrl: string; billTo: string };
  hfToken: () => string | undefined;
  /** The key-bound fetch for the router: it alone puts the Hugging Face token on requests. */
  routerFetch: typeof fetch;
  /** How long to wait for the router's response headers. */
  providerTimeoutMs?: number;
  /** First retry back-off of the router; doubles per attempt, capped at 8 s. */
  retryBaseMs?: number;
  /** The user's OpenAI-compatible endpoints (services/endpoints). */
  endpoints?: EndpointPort;
  /** How long to wait for an endpoint's response headers (a local server may load the model first). */
  endpointTimeoutMs?: number;
  /** The built-in llama.cpp engine (services/local). */
  local?: LocalPort;
}

/** The engine each conversation's replies come from: Ollama, the HF router, one of the user's endpoints, built-in. */
export class Engines {
  readonly ollama: OllamaEngine;
  private readonly local?: LocalEngine;

  constructor(private readonly opts: EngineOptions) {
    this.ollama = new OllamaEngine(opts);
    if (opts.local) this.local = new LocalEngine(opts.local);
  }

  /** The conversation's engine; throws when its endpoint is not chosen or was removed. */
  for(meta: Pick<ConversationMeta, 'backend' | 'provider' | 'endpoint'>): ChatEngine {
    const o = this.opts;
    if (meta.backend === 'ollama') return this.ollama;
    if (meta.backend === 'local') {
      if (!this.local) throw new AppError('unavailable', 'The built-in engine is not available in this run.');
      return this.local;
    }
    if (meta.backend === 'provider')
      return new RouterEngine(
        {
          router: o.router,
          hfToken: o.hfToken,
          fetch: o.routerFetch,
          log: o.log,
          timeoutMs: o.providerTimeoutMs,
          retryBaseMs: o.retryBaseMs,
        },
        meta.provider,
      );
    return new EndpointEngine(this.endpoint(meta), { timeoutMs: o.endpointTimeoutMs });
  }

  /** An endpoint conversation's endpoint; throws when none is chosen or it was removed. */
  endpoint(meta: Pick<ConversationMeta, 'endpoint'>): EndpointConnection {
    if (!meta.endpoint)
      throw new AppError('invalid_input', 'Choose an endpoint for this conversation in the chat settings.');
    const conn = this.opts.endpoints?.connection(meta.endpoint);
    if (!conn)
      throw new AppError(
        'not_found',
        "This conversation's endpoint was removed: choose another engine in the chat settings.",
      );
    return conn;
  }
}
