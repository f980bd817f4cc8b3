import type {
  ChatWrapper,
  LlamaChat,
  LlamaCompletion,
  LlamaContext,
  LlamaContextSequence,
  LlamaEmbeddingContext,
  LlamaModel,
  LlamaRankingContext,
} from 'node-llama-cpp';

/** What the host holds of one loaded model: its weights, contexts and each slot's sequence, chat and completion. */
export interface OpenModel {
  model: LlamaModel;
  contextSize: number;
  /** The chat context with its sequences, absent for an embedding model or a reranker. */
  context?: LlamaContext;
  /** Each slot's sequence, taken from the context on first use; its chat and its completion share it. */
  sequences: (LlamaContextSequence | undefined)[];
  /** One LlamaChat per sequence, kept between turns so a shared history prefix is not evaluated again. */
  chats: (LlamaChat | undefined)[];
  completions: (LlamaCompletion | undefined)[];
  /** The template LlamaChat resolves for the model, kept for counting without a sequence. */
  wrapper?: ChatWrapper;
  embedding?: Promise<LlamaEmbeddingContext>;
  /** A reranker's only context. */
  ranking?: LlamaRankingContext;
  threads?: number;
}
