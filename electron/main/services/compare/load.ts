import type { ChatParams } from '@shared/contract/chat';
import type { ComparePane } from '@shared/contract/compare';
import type { EngineStatus } from '@shared/contract/local';
import { AppError } from '@shared/errors';
import { replyError } from '../chat/replies/reply-errors';
import type { OllamaService } from '../ollama/service';
import { ollamaError } from '../ollama/errors';

/** What loading needs: the Ollama client, and the built-in engine's load. */
export interface LoadPorts {
  ollama: Pick<OllamaService, 'client' | 'host'>;
  local?: { load(id: string, opts: { contextSize?: number }): Promise<EngineStatus> };
}

/** Rejects when the signal aborts, so a Stop does not wait for a load the server goes on with. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AppError('aborted', 'Stopped.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AppError('aborted', 'Stopped.'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Loads a pane's model before its first answer, so that time is reported apart from the time to first token, and
 * says how long it took. Ollama: a chat with no messages (it answers `done_reason: "load"`), with the pane's context
 * length so the answers that follow do not reload it; the built-in engine: its own load. Throws an AppError a person
 * can act on (the reply's vocabulary: "… is not on your Ollama server. Pull it, then try again.").
 */
export async function loadModel(
  pane: ComparePane,
  params: ChatParams,
  ports: LoadPorts,
  signal: AbortSignal,
): Promise<number> {
  const started = performance.now();
  const ctx = params.num_ctx;
  try {
    if (pane.backend === 'ollama') {
      const host = ports.ollama.host;
      const req = ports.ollama
        .client()
        .chat({ model: pane.model, messages: [], stream: false, ...(ctx ? { options: { num_ctx: ctx } } : {}) })
        .catch((e: unknown) => {
          throw ollamaError(e, host);
        });
      await untilAborted(req, signal);
    } else if (pane.backend === 'local') {
      if (!ports.local) throw new AppError('unavailable', 'The built-in engine is not available in this run.');
      await untilAborted(ports.local.load(pane.model, ctx ? { contextSize: ctx } : {}), signal);
    }
  } catch (e) {
    throw replyError(e, { backend: pane.backend, model: pane.model, started: false });
  }
  return performance.now() - started;
}
