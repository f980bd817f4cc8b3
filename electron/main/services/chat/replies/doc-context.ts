import type { ConversationMeta } from '@shared/contract/chat';
import { AppError, toAppError } from '@shared/errors';
import type { RetrievalPort, RetrievedContext } from '../../documents/ports';
import { estimateTokens } from '../../documents/tokens';
import type { EngineOptions } from '../../engines/registry';
import type { OllamaService } from '../../ollama/service';
import type { Turn } from './turns';

/** A model's context when nothing says otherwise: small enough for any engine's default. */
export const UNKNOWN_CONTEXT = 4096;
/** Ollama loads a model with this context unless `num_ctx` (the request's or the Modelfile's) says otherwise. */
const OLLAMA_DEFAULT_CONTEXT = 4096;
/** Room kept for the answer when the conversation sets no max_tokens. */
const ANSWER_ROOM = 1024;
/** The chat template's own tokens per message (role markers), and an image's rough cost. */
const PER_TURN = 8;
const PER_IMAGE = 512;
/** How long a reply waits for documents still being indexed before it answers with what is ready. */
const RETRIEVE_WAIT_MS = 15_000;
/** Names listed in the "Not indexed yet" notice before "and N more" (a notice holds 2,000 characters). */
const MAX_NAMED = 8;

type Meta = Pick<ConversationMeta, 'backend' | 'model' | 'endpoint' | 'params'>;

/**
 * The context (tokens) the model answers in: the conversation's `num_ctx`, else what the engine knows (the loaded
 * model's, Ollama's Modelfile or default, the built-in engine's load plan, the endpoint's), else UNKNOWN_CONTEXT.
 */
export async function modelContext(
  meta: Meta,
  o: Pick<EngineOptions, 'ollama' | 'local' | 'endpoints'>,
): Promise<number> {
  if (meta.params.num_ctx) return meta.params.num_ctx;
  try {
    return (await engineContext(meta, o)) ?? UNKNOWN_CONTEXT;
  } catch {
    // The engine could not say (Ollama down, the endpoint gone): the turn itself reports what is wrong.
    return UNKNOWN_CONTEXT;
  }
}

async function engineContext(meta: Meta, o: Pick<EngineOptions, 'ollama' | 'local' | 'endpoints'>) {
  if (meta.backend === 'ollama') return ollamaContext(o.ollama, meta.model);
  if (meta.backend === 'local' && o.local) {
    const loaded = o.local.runtime.status().loaded.find((l) => l.id === meta.model);
    return loaded?.contextSize ?? (await o.local.model(meta.model)).plan?.contextSize;
  }
  if (meta.backend === 'endpoint' && meta.endpoint)
    return (await o.endpoints?.connection(meta.endpoint)?.describe(meta.model))?.contextLength;
  return undefined;
}

const fullName = (name: string) => (name.includes(':') ? name : `${name}:latest`);

/**
 * A loaded model's context is the one it answers in. Not loaded, Ollama loads it with the Modelfile's `num_ctx` or
 * its default, never past the trained length: the trained length alone would overflow, and Ollama would cut the
 * start of the prompt (the documents with it).
 */
async function ollamaContext(ollama: OllamaService, model: string): Promise<number | undefined> {
  // Mostly loaded while a person chats: /api/ps alone answers (show reads the GGUF's header, a load costs far more).
  const ps = await ollama.ps().catch(() => undefined);
  const running = ps?.models.find((m) => fullName(m.name) === fullName(model));
  if (running?.context_length) return running.context_length;
  const show = await ollama.show(model);
  const param = /^\s*num_ctx\s+(\d+)/m.exec(show.parameters ?? '');
  const set = param ? Number(param[1]) : OLLAMA_DEFAULT_CONTEXT;
  const trained = Object.entries(show.model_info).find(([k]) => k.endsWith('.context_length'))?.[1];
  return typeof trained === 'number' && trained > 0 ? Math.min(trained, set) : set;
}

/** What is left for documents: the context less the conversation as sent, the answer's room and a margin. */
export function docBudget(context: number, turns: readonly Turn[], maxTokens: number | undefined): number {
  const used = turns.reduce(
    (n, t) => n + estimateTokens(t.content) + PER_TURN + (t.images?.length ?? 0) * PER_IMAGE,
    0,
  );
  // The estimate is not a tokenizer (tokens.ts): keep a twentieth of the context spare.
  const margin = Math.ceil(context / 20);
  return Math.max(0, context - Math.min(maxTokens ?? ANSWER_ROOM, context / 2) - used - margin);
}

/** The notice of a reply asked while some documents were still being indexed. */
export function notIndexedNotice(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMED).map((n) => (n.length > 80 ? `${n.slice(0, 79)}…` : n));
  const more = names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : '';
  return `Not indexed yet: ${shown.join(', ')}${more} — the answer did not see them.`;
}

export interface ReplyDocs {
  docs?: RetrievedContext;
  /** What the reply should say: documents not indexed yet, or why they could not be used. */
  notice?: string;
}

/**
 * The documents' context for the reply about to be written. Stop (the signal) ends the wait with an `aborted`
 * error; any other failure leaves the documents out, and the reply says why (the chat stays usable).
 */
export async function retrieveForReply(
  port: RetrievalPort,
  q: { conversation: string; bases: string[]; question: string; budgetTokens: number },
  signal: AbortSignal,
): Promise<ReplyDocs> {
  let docs: RetrievedContext | undefined;
  try {
    docs = await port.retrieve({ ...q, waitMs: RETRIEVE_WAIT_MS }, signal);
  } catch (e) {
    if (signal.aborted) throw new AppError('aborted', 'Stopped.');
    const why = toAppError(e).message;
    return {
      notice: `The documents were left out of this answer: ${why.length > 600 ? `${why.slice(0, 599)}…` : why}`,
    };
  }
  if (signal.aborted) throw new AppError('aborted', 'Stopped.');
  if (!docs) return {};
  const missing = docs.context.notIndexed ?? [];
  return { docs, ...(missing.length ? { notice: notIndexedNotice(missing) } : {}) };
}
