import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { AppError, toAppError } from '@shared/errors';
import type { RetrievalPort, RetrievedContext } from '../../documents/ports';
import { estimateTokens } from '../../documents/tokens';
import type { EngineKind, EngineRef } from '../../engines/types';
import type { Turn } from './turns';

/** A model's context when nothing says otherwise: small enough for any engine's default. */
export const UNKNOWN_CONTEXT = 4096;
/** Room kept for the answer when the conversation sets no max_tokens. */
const ANSWER_ROOM = 1024;
/** The chat template's own tokens per message (role markers), and an image's rough cost. */
const PER_TURN = 8;
const PER_IMAGE = 512;
/** How long a reply waits for documents still being indexed before it answers with what is ready. */
const RETRIEVE_WAIT_MS = 15_000;
/** Names listed in the "Not indexed yet" notice before "and N more" (a notice holds 2,000 characters). */
const MAX_NAMED = 8;

/**
 * The context (tokens) the model answers in: the conversation's `num_ctx`, else what the engine knows (the loaded
 * model's, Ollama's Modelfile or default, the built-in engine's load plan, the endpoint's), else UNKNOWN_CONTEXT.
 */
export async function modelContext(
  meta: EngineRef & Pick<ConversationMeta, 'params'>,
  kind: EngineKind,
): Promise<number> {
  if (meta.params.num_ctx) return meta.params.num_ctx;
  try {
    return (await kind.contextSize(meta)) ?? UNKNOWN_CONTEXT;
  } catch {
    // The engine could not say (Ollama down, the endpoint gone): the turn itself reports what is wrong.
    return UNKNOWN_CONTEXT;
  }
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
