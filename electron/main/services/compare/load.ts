import type { ChatParams } from '@shared/contract/chat-conversation';
import type { ComparePane } from '@shared/contract/compare';
import { replyError } from '../chat/replies/reply-errors';
import type { EngineKind } from '../engines/types';

/**
 * Loads a pane's model before its first answer, so that time is reported apart from the time to first token, and
 * says how long it took. Each engine loads its own way (`EngineKind.load`: Ollama a chat with no messages at the
 * pane's context length, the built-in engine its load). Throws an AppError a person can act on, in the reply's
 * vocabulary ("… is not on your Ollama server. Pull it, then try again.").
 */
export async function loadModel(
  kind: EngineKind,
  pane: ComparePane,
  params: ChatParams,
  signal: AbortSignal,
): Promise<number> {
  const started = performance.now();
  try {
    await kind.load(pane, params.num_ctx, signal);
  } catch (e) {
    throw replyError(e, kind, { model: pane.model, started: false });
  }
  return performance.now() - started;
}
