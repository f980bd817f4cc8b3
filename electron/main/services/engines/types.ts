import type { Tool } from 'ollama';
import type { ChatBackend, ChatFigures, ChatParams, ToolCall } from '@shared/contract/chat';
import type { Turn } from '../chat/replies/turns';

/** One model turn to answer: the neutral history (`toTurns`), which each engine puts in its own wire format. */
export interface TurnRequest {
  model: string;
  turns: Turn[];
  /** Offered tools, as both protocols take them (Ollama's `Tool` is OpenAI's function tool); absent when none are. */
  tools?: Tool[];
  params: ChatParams;
  signal: AbortSignal;
  /** Told before an engine retries a request that failed before its first token ("Retrying…" in the chat). */
  onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void;
  /** The conversation (or other caller) this turn continues: an engine that keeps evaluated prefixes reuses its own. */
  key?: string;
  /** Told while the turn waits for the model to be free (the built-in engine's sequences are all answering). */
  onWait?: (ahead: number) => void;
  /** Refuse rather than wait behind this many queued requests (the local server answers 503 then). */
  maxQueue?: number;
}

/** Where a turn's text goes as it arrives (the live reply: to the page at once, to disk at each checkpoint). */
export interface TurnSink {
  add(content: string | undefined, thinking: string | undefined): void;
  /** Whether any text has arrived: after that nothing is retried silently. */
  readonly started: boolean;
}

export interface TurnResult {
  toolCalls?: ToolCall[];
  figures?: ChatFigures;
  /** What the reply should say of how the request was sent (e.g. images left out): added to its notice. */
  notice?: string;
}

/**
 * What a reply talks to, whichever server answers: Ollama, the Hugging Face router or one of the user's
 * OpenAI-compatible endpoints. A turn streams text and thinking into the sink and ends with its tool calls and
 * the reply's figures; it throws an AppError with a message a person can act on (replyError adds the button).
 */
export interface ChatEngine {
  readonly backend: ChatBackend;
  /**
   * Whether earlier tool calls and results go to the model when no tools are offered in this reply. Ollama takes
   * them either way; an OpenAI-protocol server may refuse tool messages without `tools`, so they are left out.
   */
  readonly toolHistoryWithoutTools: boolean;
  turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult>;
  /**
   * What the model can do, in Ollama's words (`completion`, `tools`, `vision`, `thinking`…); empty when it cannot
   * be told.
   */
  capabilities(model: string): Promise<string[]>;
  /** Why tools cannot be offered to this model (a notice on the reply), or undefined when they can. */
  toolsUnsupported(model: string): Promise<string | undefined>;
}
