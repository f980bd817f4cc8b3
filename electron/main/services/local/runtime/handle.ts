import type { Llama, LlamaChat, LlamaContext, LlamaEmbeddingContext, LlamaModel } from 'node-llama-cpp';

/** A loaded model as the engine and the local server use it (type-only imports: nothing loads node-llama-cpp). */
export interface LoadedHandle {
  readonly llama: Llama;
  readonly model: LlamaModel;
  /** The chat context (one sequence), absent for an embedding model. */
  readonly context?: LlamaContext;
  /** Opened on the first embedding call (at load for an embedding model, whose only context it is). */
  embedding?: Promise<LlamaEmbeddingContext>;
  /** One LlamaChat per loaded model, kept between turns so a shared history prefix is not evaluated again. */
  chat?: LlamaChat;
  /** Turns on the one sequence run one after another. */
  queue: Promise<unknown>;
}

/** Runs `fn` once the handle's earlier uses of its sequence are done. */
export function exclusive<T>(h: LoadedHandle, fn: () => Promise<T>): Promise<T> {
  const run = h.queue.then(fn, fn);
  h.queue = run.catch(() => {});
  return run;
}
