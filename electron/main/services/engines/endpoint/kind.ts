import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { Snippet } from '@shared/contract/snippets';
import { AppError } from '@shared/errors';
import type { Turn } from '../../chat/replies/turns';
import { openAICode } from '../openai-code';
import { retryable } from '../reply-action';
import { remoteFootprint } from '../remote';
import type { StreamLimits } from '../sse-data';
import type { EngineKind, EngineRef, Footprint } from '../types';
import { EndpointEngine } from './engine';
import type { EndpointConnection, EndpointPort } from './port';

/** One of the user's OpenAI-compatible servers (llama-server, LM Studio, vLLM…): its own model ids and figures. */
export class EndpointKind implements EngineKind {
  readonly backend = 'endpoint' as const;
  readonly toolHistoryWithoutTools = false;

  constructor(
    private readonly opts: { endpoints?: EndpointPort; timeoutMs?: number; streamLimits?: Partial<StreamLimits> },
  ) {}

  /** The conversation's or pane's endpoint; throws when none is chosen or it was removed. */
  connection(ref: Pick<EngineRef, 'endpoint'>, place: 'conversation' | 'pane' = 'conversation'): EndpointConnection {
    const choose = place === 'pane' ? 'for it' : 'in the chat settings';
    if (!ref.endpoint)
      throw new AppError(
        'invalid_input',
        place === 'pane'
          ? 'Choose an endpoint for this pane.'
          : 'Choose an endpoint for this conversation in the chat settings.',
      );
    const conn = this.opts.endpoints?.connection(ref.endpoint);
    if (!conn)
      throw new AppError('not_found', `This ${place}'s endpoint was removed: choose another engine ${choose}.`);
    return conn;
  }

  engine(ref: EngineRef, place: 'conversation' | 'pane'): EndpointEngine {
    return new EndpointEngine(this.connection(ref, place), {
      timeoutMs: this.opts.timeoutMs,
      streamLimits: this.opts.streamLimits,
    });
  }

  /** An endpoint conversation needs its endpoint (not chosen, or removed since). */
  assertReady(ref: EngineRef): void {
    this.connection(ref);
  }

  server(ref: EngineRef): string {
    return `endpoint\n${ref.endpoint ?? ''}`;
  }

  private name(ref: EngineRef): string | undefined {
    return ref.endpoint ? this.opts.endpoints?.connection(ref.endpoint)?.name : undefined;
  }

  exportName(ref: EngineRef): string {
    return `endpoint ${this.name(ref) ?? ref.endpoint ?? '(none)'}`;
  }

  describe(ref: EngineRef): Promise<{ label: string; names: string[] }> {
    const name = this.name(ref);
    return Promise.resolve({ label: `${name || 'Endpoint'} · ${ref.model}`, names: name ? [name] : [] });
  }

  /** What the server says of the model (its /models or /props), or the length the user typed for it. */
  async contextSize(ref: EngineRef): Promise<number | undefined> {
    if (!ref.endpoint) return undefined;
    return (await this.opts.endpoints?.connection(ref.endpoint)?.describe(ref.model))?.contextLength;
  }

  /** Nothing to load from here: the server loads its models itself. */
  load(): Promise<void> {
    return Promise.resolve();
  }

  footprint(ref: EngineRef): Promise<Footprint> {
    return remoteFootprint(ref);
  }

  /** The OpenAI clients and curl with the endpoint's base URL; the key is read from OPENAI_API_KEY, never written. */
  code(meta: ConversationMeta, turns: Turn[]): Promise<{ snippets: Snippet[]; notice: string }> {
    return openAICode(meta, turns, this.connection(meta));
  }

  /** Its errors already name it and say what to do (errors.ts): retryable ones get the button. */
  replyError(err: AppError): AppError {
    return retryable(err);
  }
}
