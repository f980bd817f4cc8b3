import { z } from 'zod';
import { errorCodes } from '@shared/errors';

// The messages between main and the engine host (the process that runs llama.cpp). One protocol for Electron's
// utilityProcess and Node's child_process: plain structured-clone data. What the host sends is validated in main, so
// a host that writes garbage on its channel is stopped and said, never trusted.

/** A model as the host opens it: the file to read and how to name it in errors. */
export interface HostModel {
  id: string;
  name: string;
  /** The first (or only) part; llama.cpp finds the others beside it. */
  path: string;
  embedding: boolean;
  /** Opened with a ranking context (no chat context, no sequences). */
  reranker?: boolean;
}

export interface HostLoad {
  model: HostModel;
  contextSize?: number;
  gpuLayers?: number;
  /** Parallel sequences of the chat context (each has `contextSize` tokens of KV cache). */
  sequences: number;
  /** Unset: the default rule (host/threads.ts) with llama.cpp's count of math cores. */
  threads?: number;
}

/** Sampling and limits for one generation (the chat params as node-llama-cpp takes them). */
export interface HostGenerateOptions {
  maxTokens?: number;
  temperature: number;
  topP?: number;
  seed?: number;
  stop?: string[];
  /** No thinking: a thought budget of 0 tokens. */
  noThoughts?: boolean;
}

export interface HostGenerate {
  model: HostModel;
  /** Which of the context's sequences to use: main schedules them. */
  slot: number;
  /** node-llama-cpp's `ChatHistoryItem[]`, ending with the model item to complete. */
  history: unknown[];
  /** node-llama-cpp's `ChatModelFunctions` (JSON-schema params), absent without tools. */
  functions?: Record<string, { description?: string; params?: unknown }>;
  /** Constrained decoding (never with `functions`): any JSON, or JSON following a schema in the grammar's form. */
  grammar?: HostGrammar;
  /** Refuse a prompt that does not fit the context (never drop its oldest turns), and stop the reply at the end. */
  fitContext?: boolean;
  options: HostGenerateOptions;
}

/** A plain-text completion (OpenAI's /v1/completions): the prompt as it is, no chat template. */
export interface HostComplete {
  model: HostModel;
  slot: number;
  prompt: string;
  /** Fill-in-the-middle: the text after the gap (the model's FIM tokens frame it). */
  suffix?: string;
  grammar?: HostGrammar;
  options: HostGenerateOptions;
}

export type HostGrammar = { type: 'json' } | { type: 'schema'; schema: Record<string, unknown> };

/** A request main sends; each is answered by one `done` or `fail` with its id. */
export type HostRequest =
  | { op: 'load'; load: HostLoad }
  | { op: 'unload'; id: string }
  | { op: 'generate'; generate: HostGenerate }
  | { op: 'complete'; complete: HostComplete }
  | { op: 'embed'; model: HostModel; texts: string[] }
  /** One relevance score (0–1) per document for the query, in the documents' order. */
  | { op: 'rank'; model: HostModel; query: string; documents: string[] }
  /** The tokens a chat history renders to with the model's template (Anthropic's count_tokens). */
  | { op: 'count'; model: HostModel; history: unknown[]; functions?: HostGenerate['functions'] }
  | { op: 'tokenize'; id: string; text: string }
  | { op: 'memory' };

export type ToHost =
  | { t: 'req'; id: number; req: HostRequest }
  | { t: 'abort'; id: number }
  /** Tests only (the host honours it when started with HUBDESK_ENGINE_TEST=1): crash, hang or talk garbage. */
  | { t: 'test'; act: 'abort' | 'hang' | 'garbage' | 'exit' };

const loaded = z.object({
  contextSize: z.number(),
  gpuLayers: z.number(),
  sequences: z.number(),
  threads: z.number(),
  memoryBytes: z.number(),
  gpu: z.string(),
});
export type HostLoaded = z.infer<typeof loaded>;

const generated = z.object({
  stopReason: z.string(),
  /** The stop sequence that ended the reply, when one did. */
  stopTrigger: z.string().optional(),
  functionCalls: z.array(z.object({ functionName: z.string(), params: z.unknown() })),
  inputTokens: z.number(),
  outputTokens: z.number(),
});
export type HostGenerated = z.infer<typeof generated>;

const hostErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string().max(20_000),
  /** llama.cpp's error lines written during the failing call (node-llama-cpp's own message rarely says why). */
  log: z.array(z.string().max(4_000)).max(40).optional(),
  name: z.string().max(200).optional(),
  /** An AppError's plain details (a refused prompt's token counts), kept across the channel. */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type HostError = z.infer<typeof hostErrorSchema>;

/** What each request answers with. */
const resultSchema = z.union([
  z.object({ op: z.literal('load'), loaded }),
  z.object({ op: z.literal('unload') }),
  z.object({ op: z.literal('generate'), generated }),
  z.object({ op: z.literal('complete'), generated }),
  z.object({ op: z.literal('embed'), vectors: z.array(z.array(z.number())) }),
  /** `tokens`: every (query, document) input's tokens, summed: the request's usage. */
  z.object({ op: z.literal('rank'), scores: z.array(z.number()), tokens: z.number() }),
  z.object({ op: z.literal('count'), tokens: z.number() }),
  z.object({ op: z.literal('tokenize'), tokens: z.number() }),
  z.object({ op: z.literal('memory'), rssBytes: z.number() }),
]);
export type HostResult = z.infer<typeof resultSchema>;

/** A streamed piece of a generation: reply text, thinking, or the start of a function call; and its tokens. */
const pieceSchema = z.tuple([z.enum(['text', 'thought', 'call']), z.string(), z.number()]);
export type HostPiece = z.infer<typeof pieceSchema>;

export const fromHostSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready'), pid: z.number() }),
  z.object({
    t: z.literal('log'),
    level: z.enum(['debug', 'info', 'warn', 'error']),
    msg: z.string().max(8_000),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  /** Pieces batched per few milliseconds (one message per token would cost more than the token at 2,500/s). */
  z.object({ t: z.literal('pieces'), id: z.number(), pieces: z.array(pieceSchema) }),
  z.object({ t: z.literal('done'), id: z.number(), result: resultSchema }),
  z.object({ t: z.literal('fail'), id: z.number(), error: hostErrorSchema }),
]);
export type FromHost = z.infer<typeof fromHostSchema>;

/** The channel both process kinds give: messages each way (structured clone), and the process's end. */
export interface HostProcess {
  readonly pid: number | undefined;
  send(msg: ToHost): void;
  onMessage(fn: (msg: unknown) => void): void;
  /** Lines the process wrote on stderr (llama.cpp's asserts go there, not through its logger). */
  onStderr(fn: (line: string) => void): void;
  /** Called once, when the process has ended: its exit code, or the signal that ended it. */
  onExit(fn: (code: number | null, signal: string | null) => void): void;
  kill(): void;
}

/** Starts an engine host process (Node's child_process here, Electron's utilityProcess in the desktop app). */
export type SpawnHost = (env: Record<string, string>) => HostProcess;
