import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { Snippet } from '@shared/contract/snippets';
import { routerKeyProblem } from '@shared/chat-model';
import { AppError } from '@shared/errors';
import type { Turn } from '../../chat/replies/turns';
import type { SnippetService } from '../../snippets/service';
import { errorText, retryable, STREAM_CUT, withAction } from '../reply-action';
import { remoteFootprint } from '../remote';
import type { EngineKind, EngineRef, Footprint } from '../types';
import { toOpenAIMessages } from '../wire';
import { RouterEngine, type RouterDeps } from './engine';

const BILLING_URL = 'https://huggingface.co/settings/billing';

export interface RouterKindDeps extends RouterDeps {
  /** Whether a Hugging Face token is set but not bound to the router URL (so none would be sent). */
  hfTokenWithheld?: () => boolean;
  /** The inference snippets ("Open as code"), from @huggingface/inference through the snippet service. */
  snippets?: () => SnippetService;
}

/** Hosted models through the Hugging Face router: Hub repo ids, a provider or `auto`, the HF token. */
export class RouterKind implements EngineKind {
  readonly backend = 'provider' as const;
  readonly toolHistoryWithoutTools = false;

  constructor(private readonly deps: RouterKindDeps) {}

  engine(ref: EngineRef): RouterEngine {
    return new RouterEngine(this.deps, ref.provider ?? 'auto');
  }

  assertReady(): void {
    if (this.deps.hfToken()) return;
    const key = this.deps.hfTokenWithheld?.() ? 'withheld' : 'missing';
    throw new AppError('unauthorized', routerKeyProblem(key, this.deps.router().routerUrl));
  }

  server(): string {
    return 'provider';
  }

  exportName(ref: EngineRef): string {
    return `Hugging Face router, provider ${ref.provider ?? 'auto'}`;
  }

  describe(ref: EngineRef): Promise<{ label: string; names: string[] }> {
    const pinned = ref.provider && ref.provider !== 'auto' ? ref.provider : undefined;
    return Promise.resolve({
      label: `HF router · ${ref.model}${pinned ? ` via ${pinned}` : ''}`,
      names: pinned ? [pinned] : [],
    });
  }

  /** The router does not say a model's context. */
  contextSize(): Promise<number | undefined> {
    return Promise.resolve(undefined);
  }

  /** Nothing to load: the provider holds the model. */
  load(): Promise<void> {
    return Promise.resolve();
  }

  footprint(ref: EngineRef): Promise<Footprint> {
    return remoteFootprint(ref);
  }

  /** The inference snippets for the model and provider, with the conversation as their messages. */
  async code(meta: ConversationMeta, turns: Turn[]): Promise<{ snippets: Snippet[]; notice?: string }> {
    const snippets = this.deps.snippets?.();
    if (!snippets) throw new AppError('unavailable', 'Snippets are not available in this run.');
    const p = meta.params;
    const res = await snippets.generate({
      model: {
        id: meta.model,
        pipeline_tag: 'text-generation',
        tags: ['text-generation', 'conversational'],
        ...(meta.provider !== 'auto'
          ? {
              inferenceProviderMapping: [
                {
                  provider: meta.provider,
                  hfModelId: meta.model,
                  providerId: meta.model,
                  status: 'live',
                  task: 'conversational',
                },
              ],
            }
          : {}),
      },
      kinds: ['inference'],
      options: {
        provider: meta.provider || 'auto',
        streaming: true,
        // OpenAI-style messages (tool calls by id, JSON-string arguments); the library writes them out as given.
        messages: toOpenAIMessages(turns) as { role: 'system' | 'user' | 'assistant'; content: string }[],
        ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
        ...(p.max_tokens !== undefined ? { max_tokens: p.max_tokens } : {}),
        ...(p.top_p !== undefined ? { top_p: p.top_p } : {}),
      },
    });
    const section = res.sections.find((s) => s.kind === 'inference');
    if (section?.error) throw new AppError('internal', `The snippet engine failed: ${section.error}`);
    return { snippets: section?.snippets ?? [], ...(section?.notice ? { notice: section.notice } : {}) };
  }

  replyError(err: AppError, ctx: { started: boolean }): AppError {
    if (err.status === 402)
      return withAction(
        err,
        'Your Hugging Face credits are used up. Add credits on the billing page, or bill an organisation (Settings → Bill to).',
        { kind: 'billing', url: BILLING_URL },
        'forbidden',
      );
    if (STREAM_CUT.test(errorText(err)))
      return withAction(
        err,
        ctx.started
          ? 'The inference router stopped answering mid-reply; the partial reply is kept.'
          : 'The inference router stopped answering before the reply began.',
        { kind: 'retry' },
        'unavailable',
      );
    return retryable(err);
  }
}
