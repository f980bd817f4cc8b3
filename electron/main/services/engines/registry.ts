import type { ChatBackend } from '@shared/contract/chat-conversation';
import type { Logger } from '../log';
import type { OllamaService } from '../ollama/service';
import type { SnippetService } from '../snippets/service';
import { EndpointKind } from './endpoint/kind';
import type { EndpointPort } from './endpoint/port';
import { LocalKind } from './local/kind';
import type { LocalPort } from './local/engine';
import { OllamaKind } from './ollama/kind';
import { RouterKind } from './router/kind';
import type { StreamLimits } from './sse-data';
import type { ChatEngine, EngineKind, EngineRef } from './types';

export interface EngineOptions {
  ollama: OllamaService;
  log: Logger;
  router: () => { routerUrl: string; billTo: string };
  hfToken: () => string | undefined;
  /** Whether a Hugging Face token is set but not bound to the router URL (so none would be sent). */
  hfTokenWithheld?: () => boolean;
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
  /** Caps on the router's and the endpoints' streamed replies (sse-data.ts; tests set small ones). */
  streamLimits?: Partial<StreamLimits>;
  /** The built-in llama.cpp engine (services/local). */
  local?: LocalPort;
  /** The snippet service, for the router's "Open as code". */
  snippets?: () => SnippetService;
}

/**
 * Every engine by its backend: where a reply's tokens come from (Ollama, the HF router, one of the user's endpoints,
 * the built-in engine) and what only that engine knows (`EngineKind`). Adding an engine adds its folder here.
 */
export class Engines {
  private readonly kinds: Record<ChatBackend, EngineKind>;

  constructor(opts: EngineOptions) {
    this.kinds = {
      ollama: new OllamaKind(opts),
      provider: new RouterKind({
        router: opts.router,
        hfToken: opts.hfToken,
        hfTokenWithheld: opts.hfTokenWithheld,
        fetch: opts.routerFetch,
        log: opts.log,
        timeoutMs: opts.providerTimeoutMs,
        retryBaseMs: opts.retryBaseMs,
        streamLimits: opts.streamLimits,
        snippets: opts.snippets,
      }),
      endpoint: new EndpointKind({
        endpoints: opts.endpoints,
        timeoutMs: opts.endpointTimeoutMs,
        streamLimits: opts.streamLimits,
      }),
      local: new LocalKind(opts.local),
    };
  }

  kind(backend: ChatBackend): EngineKind {
    return this.kinds[backend];
  }

  /** The conversation's (or pane's) engine; throws in words when it cannot be had (its endpoint removed). */
  for(ref: Omit<EngineRef, 'model'> & { model?: string }, place: 'conversation' | 'pane' = 'conversation'): ChatEngine {
    return this.kinds[ref.backend].engine({ model: '', ...ref }, place);
  }
}
