import type { Tool } from 'ollama';
import type { ChatFigures, ToolCall } from '@shared/contract/chat-message';
import type { ChatBackend, ChatParams, ConversationMeta } from '@shared/contract/chat-conversation';
import type { Snippet } from '@shared/contract/snippets';
import type { AppError, ErrorCode } from '@shared/errors';
import type { ReplyAction } from '@shared/reply-action';
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
  /** Constrain the reply to JSON: any object, or one following a JSON Schema. */
  format?: ReplyFormat;
  /** Which tool calls the reply may or must make; `auto` when absent. */
  toolChoice?: ToolChoice;
  /** Refuse a prompt longer than the model's context rather than drop its oldest turns (what API clients expect). */
  exactContext?: boolean;
  /** Seconds the model may then stay idle before it unloads (LM Studio's per-request `ttl`), for engines that load. */
  ttl?: number;
}

/** A reply constrained to JSON (OpenAI's `response_format`, Ollama's `format`). */
export type ReplyFormat = { type: 'json' } | { type: 'json_schema'; schema: unknown };

/** OpenAI's `tool_choice`: the model decides, calls nothing, calls some tool, or calls this one. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** Where a turn's text goes as it arrives (the live reply: to the page at once, to disk at each checkpoint). */
export interface TurnSink {
  /** `tokens`: how many tokens the text holds, when an engine sends several at once (else one). */
  add(content: string | undefined, thinking: string | undefined, tokens?: number): void;
  /** Whether any text has arrived: after that nothing is retried silently. */
  readonly started: boolean;
}

export interface TurnResult {
  toolCalls?: ToolCall[];
  figures?: ChatFigures;
  /** What the reply should say of how the request was sent (e.g. images left out): added to its notice. */
  notice?: string;
  /** Which of `params.stop` ended the reply, when the engine says (Anthropic's answer names it). */
  stopSequence?: string;
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

/** Which engine and model: a conversation's or a Compare pane's (the router's provider, the endpoint's id). */
export interface EngineRef {
  backend: ChatBackend;
  model: string;
  provider?: string;
  endpoint?: string;
}

/** Where a model runs and what it holds of this machine's memory, for Compare's scheduling. */
export interface Footprint {
  where: 'ollama' | 'local' | 'remote';
  /** Who holds the model, as the plan says it ("Ollama", "The built-in engine"). */
  engine: string;
  /** The model's name as the plan shows it. */
  name: string;
  /** How many requests it answers at once (the built-in engine's sequences); undefined: as many as come. */
  parallel?: number;
  /** The same model on the same server shares this key (it is loaded once). */
  key: string;
  loaded: boolean;
  /** What it takes loaded (or takes now), when it can be told. */
  bytes?: number;
}

/** One planning round's shared lookups (Ollama's lists asked once for every pane). */
export interface FootprintRound {
  once<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * What only an engine knows, beside its turns. Each engine's folder (`engines/<name>/kind.ts`) answers for itself, so
 * nothing else in main branches on the backend: the chat, Compare, Documents and exports ask the engine's kind.
 */
export interface EngineKind {
  readonly backend: ChatBackend;
  /** Whether earlier tool calls go to the model when no tools are offered (in replies and in "Open as code"). */
  readonly toolHistoryWithoutTools: boolean;
  /** The engine for this conversation or pane; throws in words when it cannot be had (its endpoint removed). */
  engine(ref: EngineRef, place: 'conversation' | 'pane'): ChatEngine;
  /** Throws when a reply cannot be asked for at all (the router without a token); the chat says it first. */
  assertReady(ref: EngineRef): void;
  /** Which server a model name belongs to: when it changes, the conversation's model is chosen anew. */
  server(ref: EngineRef): string;
  /** The engine in an export's words ("Ollama", "built-in llama.cpp engine", "endpoint My box"). */
  exportName(ref: EngineRef): string;
  /** Compare: the pane's label ("Ollama · llama3.2:latest") and every name that would give its model away. */
  describe(ref: EngineRef): Promise<{ label: string; names: string[] }>;
  /** The context (tokens) the model answers in, when the engine can tell. */
  contextSize(ref: EngineRef): Promise<number | undefined>;
  /** Compare: loads the model before its first answer, so that time is apart; remote engines have nothing to load. */
  load(ref: EngineRef, contextSize: number | undefined, signal: AbortSignal): Promise<void>;
  /** Compare: what the model takes of this machine's memory, and whether it is loaded with this context. */
  footprint(ref: EngineRef, contextSize: number | undefined, round: FootprintRound): Promise<Footprint>;
  /** "Open as code": the conversation's turns as runnable snippets against this engine. */
  code(meta: ConversationMeta, turns: Turn[]): Promise<{ snippets: Snippet[]; notice?: string }>;
  /** A failed reply in words a person can act on, with the button the chat offers (details.action). */
  replyError(err: AppError, ctx: { model: string; started: boolean }): AppError;
  /** Documents: vectors for the texts, from an embedding model of this engine (absent: it makes none). */
  embed?(model: string, texts: string[]): Promise<number[][]>;
  /** An embedding failure in this engine's words (and the button the page offers), or undefined to keep its own. */
  embedError?(err: AppError, model: string): { code: ErrorCode; message: string; action?: ReplyAction } | undefined;
}
