import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatFigures, ToolCall } from '@shared/contract/chat-message';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { LocalModel } from '@shared/contract/local-models';
import { isTextModel } from '@shared/chat-model';
import { AppError, toAppError } from '@shared/errors';
import { newId } from '../../chat/storage/rows';
import type { EngineRuntime } from '../../local/host/engine-runtime';
import { describeStop, EngineStopped, HostFailure } from '../../local/host/supervisor';
import { openAIFigures } from '../figures';
import { constraintsOf, forcedCall, type ReplyConstraints } from './constraints';
import { doneReason, toLlamaHistory, toToolCall, withInstruction } from './history';
import type { HostGenerate, HostGenerateOptions } from '../../local/host/protocol';
import type { ChatEngine, ReplyFormat, TurnRequest, TurnResult, TurnSink } from '../types';

/** What the built-in engine needs of the local service: a usable model by id, and the runtime that runs it. */
export interface LocalPort {
  model(id: string): Promise<LocalModel>;
  readonly runtime: EngineRuntime;
  load(id: string, opts: { contextSize?: number }): Promise<unknown>;
  /** The local server's port (on or not): "Open as code" points at it. */
  readonly server: { status(): { port: number } };
  embed(id: string, input: string[]): Promise<{ embeddings: number[][] }>;
}

/** The history and functions a reply evaluates: the forced call's instruction in the system turn. */
function promptOf(history: ChatHistoryItem[], c: ReplyConstraints): Pick<HostGenerate, 'history' | 'functions'> {
  return {
    history: c.instruction ? withInstruction(history, c.instruction) : history,
    ...(c.functions ? { functions: c.functions } : {}),
  };
}

/** A plain-text completion the local server asks for (/v1/completions). */
export interface CompletionRequest {
  model: string;
  prompt: string;
  /** Fill-in-the-middle: the text after the gap. */
  suffix?: string;
  params: ChatParams;
  format?: ReplyFormat;
  signal: AbortSignal;
  maxQueue?: number;
  ttl?: number;
}

/** The chat's sampling parameters as the host takes them. */
function hostOptions(p: ChatParams): HostGenerateOptions {
  return {
    ...(p.max_tokens !== undefined ? { maxTokens: p.max_tokens } : {}),
    temperature: p.temperature ?? 0.8,
    ...(p.top_p !== undefined ? { topP: p.top_p } : {}),
    ...(p.seed !== undefined ? { seed: p.seed } : {}),
    ...(p.stop?.length ? { stop: p.stop } : {}),
  };
}

const COMPRESS_FAILED = /compress chat history|context size is too small|too long for the context|exceeds the context/i;

/**
 * Replies from the built-in llama.cpp engine: the GGUF's own chat template, node-llama-cpp's function calling, run in
 * the engine host on one of the model's sequences (several replies on one model run at once).
 */
export class LocalEngine implements ChatEngine {
  readonly backend = 'local' as const;
  readonly toolHistoryWithoutTools = true;

  constructor(private readonly local: LocalPort) {}

  async turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
    const started = performance.now();
    const model = await this.local.model(req.model);
    const kind = notText(model);
    if (kind) throw new AppError('invalid_input', `${model.name} is ${kind}: choose a chat model to talk to.`);
    // Checked before the model loads: a schema the grammar cannot follow is refused at once.
    const c = constraintsOf(req);
    const lease = await this.acquire(model, req, sink);
    const loadedAt = performance.now();
    const p = req.params;
    const showThoughts = p.think !== false;
    let firstToken: number | undefined;
    const first = () => (firstToken ??= performance.now());
    // A forced call's JSON is gathered, not shown: it comes back as the call.
    let callText = '';
    const history = toLlamaHistory(req.turns);
    try {
      const res = await lease
        .generate(
          {
            ...promptOf(history, c),
            ...(c.grammar ? { grammar: c.grammar } : {}),
            ...(req.exactContext ? { fitContext: true } : {}),
            options: { ...hostOptions(p), ...(showThoughts ? {} : { noThoughts: true }) },
          },
          (pieces) => {
            for (const [kind, text, tokens] of pieces) {
              first();
              if (kind === 'text' && c.forced) callText += text;
              else if (kind === 'text') sink.add(text, undefined, tokens);
              else if (kind === 'thought') sink.add(undefined, text, tokens);
            }
          },
          req.signal,
        )
        .catch((e: unknown) => {
          throw this.failure(e, req, model, lease.contextSize, sink);
        });
      if (req.signal.aborted) throw new AppError('aborted', 'Stopped.');
      const forced = c.forced ? forcedCall(callText, c.forced) : undefined;
      const calls = forced ? [forced] : res.functionCalls;
      const toolCalls: ToolCall[] = calls.map((fc) => toToolCall(fc, newId('m').replace('m_', 'call_')));
      if (toolCalls.length) first();
      if (c.forced && !forced)
        throw new AppError(
          'upstream',
          `${model.name} did not finish the tool call (${res.stopReason}): raise max_tokens.`,
        );
      const figures: ChatFigures = openAIFigures(
        {
          usage: { prompt_tokens: res.inputTokens, completion_tokens: res.outputTokens },
          finishReason: forced && res.stopReason !== 'maxTokens' ? 'tool_calls' : doneReason(res.stopReason),
        },
        { started, firstToken, end: performance.now() },
      );
      if (lease.loaded) figures.loadMs = loadedAt - started;
      const images = req.turns.some((t) => t.images?.length);
      return {
        figures,
        ...(res.stopTrigger ? { stopSequence: res.stopTrigger } : {}),
        ...(toolCalls.length ? { toolCalls } : {}),
        ...(images ? { notice: 'Images were not sent: the built-in engine reads text only.' } : {}),
      };
    } finally {
      lease.release();
    }
  }

  /**
   * A plain-text completion of `prompt` (or fill-in-the-middle before `suffix`): no chat template, the text as it
   * is. The local server's /v1/completions; never cut to fit the context, as the server's chat never is.
   */
  async complete(req: CompletionRequest, sink: TurnSink): Promise<TurnResult> {
    const model = await this.local.model(req.model);
    const kind = notText(model);
    if (kind) throw new AppError('invalid_input', `${model.name} is ${kind}: choose a model that writes text.`);
    const grammar = req.format ? constraintsOf({ format: req.format }).grammar : undefined;
    const lease = await this.acquire(model, req, sink);
    try {
      const res = await lease
        .complete(
          {
            prompt: req.prompt,
            ...(req.suffix !== undefined ? { suffix: req.suffix } : {}),
            ...(grammar ? { grammar } : {}),
            options: hostOptions(req.params),
          },
          (pieces) => {
            for (const [, text, tokens] of pieces) sink.add(text, undefined, tokens);
          },
          req.signal,
        )
        .catch((e: unknown) => {
          throw this.failure(e, req, model, lease.contextSize, sink);
        });
      if (req.signal.aborted) throw new AppError('aborted', 'Stopped.');
      return {
        figures: {
          promptTokens: res.inputTokens,
          evalTokens: res.outputTokens,
          doneReason: doneReason(res.stopReason),
        },
        ...(res.stopTrigger ? { stopSequence: res.stopTrigger } : {}),
      };
    } finally {
      lease.release();
    }
  }

  /**
   * The tokens a turn's prompt is with the model's own template (tools documented as the reply would see them):
   * Anthropic's count_tokens. The model loads if it is not; no sequence is held.
   */
  async countTokens(req: Pick<TurnRequest, 'model' | 'turns' | 'tools' | 'toolChoice' | 'format'>): Promise<number> {
    const model = await this.local.model(req.model);
    if (!isTextModel(model))
      throw new AppError('invalid_input', `${model.name} does not write text: count tokens for a chat model.`);
    return this.local.runtime.count(model, promptOf(toLlamaHistory(req.turns), constraintsOf(req)));
  }

  /** A sequence of the model (loaded first when it is not), said in words when the engine stops while it waits. */
  private acquire(
    model: LocalModel,
    req: Pick<TurnRequest, 'signal' | 'key' | 'onWait' | 'maxQueue' | 'ttl'>,
    sink: TurnSink,
  ) {
    return this.local.runtime
      .acquire(model, {
        signal: req.signal,
        key: req.key,
        onWait: req.onWait,
        ...(req.maxQueue !== undefined ? { maxQueue: req.maxQueue } : {}),
        ...(req.ttl !== undefined ? { ttl: req.ttl } : {}),
      })
      .catch((e: unknown) => {
        throw e instanceof EngineStopped ? this.stopped(e, sink) : e;
      });
  }

  /** The host ended under this reply: say what happened, keep what it wrote (the reply does), and how to go on. */
  private stopped(e: EngineStopped, sink: TurnSink): AppError {
    const next = sink.started ? 'What it wrote is kept; send again to restart it.' : 'Send again to restart it.';
    return new AppError(
      'unavailable',
      `The built-in engine stopped while answering (${describeStop(e.stop)}). ${next}`,
      { details: e.details },
    );
  }

  private failure(
    e: unknown,
    req: { signal: AbortSignal },
    model: LocalModel,
    contextSize: number,
    sink: TurnSink,
  ): AppError {
    if (req.signal.aborted) return new AppError('aborted', 'Stopped.');
    if (e instanceof EngineStopped) return this.stopped(e, sink);
    const err = e as Error | undefined;
    const msg = err?.message ?? String(e);
    if (err?.name === 'DisposedError' || /disposed/i.test(msg))
      return new AppError('unavailable', `${model.name} was unloaded while it answered: send again to reload it.`);
    if (COMPRESS_FAILED.test(msg))
      return new AppError(
        'invalid_input',
        `This conversation is longer than the model's context (${contextSize} tokens): start a new conversation, or load ${model.name} with a longer context.`,
      );
    const app = e instanceof HostFailure ? e : toAppError(e);
    return app.code === 'internal' ? new AppError('upstream', `llama.cpp stopped: ${msg}`) : app;
  }

  /** What the model can do: chat and call tools (node-llama-cpp's function calling), or only embed. */
  async capabilities(model: string): Promise<string[]> {
    const m = await this.local.model(model).catch(() => undefined);
    if (!m) return [];
    return m.reranker ? ['rerank'] : m.embedding ? ['embedding'] : ['completion', 'tools'];
  }

  async toolsUnsupported(model: string): Promise<string | undefined> {
    const m = await this.local.model(model).catch(() => undefined);
    const kind = m && notText(m);
    return kind ? `${m.name} is ${kind}: it cannot call tools.` : undefined;
  }
}

/** What a model that writes no text is, in words; undefined for a model that writes. */
function notText(m: LocalModel): string | undefined {
  return m.reranker ? 'a reranker' : m.embedding ? 'an embedding model' : undefined;
}
