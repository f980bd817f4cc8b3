import type { LlamaChatResponse } from 'node-llama-cpp';
import type { ChatFigures, ToolCall } from '@shared/contract/chat';
import type { LocalModel } from '@shared/contract/local';
import { AppError, toAppError } from '@shared/errors';
import { newId } from '../chat/storage/rows';
import type { LoadedHandle } from '../local/runtime/handle';
import { exclusive } from '../local/runtime/handle';
import type { LlamaRuntime } from '../local/runtime/runtime';
import { openAIFigures } from './figures';
import { doneReason, toLlamaFunctions, toLlamaHistory, toToolCall } from './local-history';
import type { ChatEngine, TurnRequest, TurnResult, TurnSink } from './types';

/** What the built-in engine needs of the local service: a usable model by id, and the runtime that runs it. */
export interface LocalPort {
  model(id: string): Promise<LocalModel>;
  readonly runtime: LlamaRuntime;
}

const COMPRESS_FAILED = /compress chat history|context size is too small|too long for the context|exceeds the context/i;

/** Replies from the built-in llama.cpp engine: the GGUF's own chat template, node-llama-cpp's function calling. */
export class LocalEngine implements ChatEngine {
  readonly backend = 'local' as const;
  readonly toolHistoryWithoutTools = true;

  constructor(private readonly local: LocalPort) {}

  async turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
    const started = performance.now();
    const model = await this.local.model(req.model);
    if (model.embedding)
      throw new AppError('invalid_input', `${model.name} is an embedding model: choose a chat model to talk to.`);
    const wasLoaded = this.local.runtime.status().loaded.some((l) => l.id === model.id);
    const lease = await this.local.runtime.acquire(model, req.signal);
    const loadedAt = performance.now();
    try {
      const h = lease.handle as LoadedHandle;
      return await exclusive(h, () => this.generate(h, model, req, sink, started, wasLoaded ? undefined : loadedAt));
    } finally {
      lease.release();
    }
  }

  private async generate(
    h: LoadedHandle,
    model: LocalModel,
    req: TurnRequest,
    sink: TurnSink,
    started: number,
    loadedAt: number | undefined,
  ): Promise<TurnResult> {
    const context = h.context!;
    if (!h.chat || h.chat.disposed) {
      const { LlamaChat } = await import('node-llama-cpp');
      h.chat = new LlamaChat({ contextSequence: context.getSequence() });
    }
    const chat = h.chat;
    const p = req.params;
    const meter = chat.sequence.tokenMeter.getState();
    let firstToken: number | undefined;
    const first = () => (firstToken ??= performance.now());
    const showThoughts = p.think !== false;
    let res: LlamaChatResponse<ReturnType<typeof toLlamaFunctions>>;
    try {
      res = await chat.generateResponse(toLlamaHistory(req.turns), {
        signal: req.signal,
        stopOnAbortSignal: true,
        // Without a limit a model that never ends would shift its context forever.
        maxTokens: p.max_tokens ?? context.contextSize,
        temperature: p.temperature ?? 0.8,
        ...(p.top_p !== undefined ? { topP: p.top_p } : {}),
        ...(p.seed !== undefined ? { seed: p.seed } : {}),
        ...(p.stop?.length ? { customStopTriggers: p.stop } : {}),
        ...(showThoughts ? {} : { budgets: { thoughtTokens: 0 } }),
        ...(req.tools?.length ? { functions: toLlamaFunctions(req.tools) } : {}),
        onResponseChunk: (c) => {
          if (!c.text) return;
          if (c.type === undefined) {
            first();
            sink.add(c.text, undefined);
          } else if (c.segmentType === 'thought' && showThoughts) {
            first();
            sink.add(undefined, c.text);
          }
        },
        onFunctionCallParamsChunk: () => void first(),
      });
    } catch (e) {
      throw this.failure(e, req, model, context.contextSize);
    }
    if (req.signal.aborted) throw new AppError('aborted', 'Stopped.');
    const used = chat.sequence.tokenMeter.getState();
    const toolCalls: ToolCall[] = (res.functionCalls ?? []).map((fc) =>
      toToolCall(fc, newId('m').replace('m_', 'call_')),
    );
    if (toolCalls.length) first();
    const figures: ChatFigures = openAIFigures(
      {
        usage: {
          prompt_tokens: used.usedInputTokens - meter.usedInputTokens,
          completion_tokens: used.usedOutputTokens - meter.usedOutputTokens,
        },
        finishReason: doneReason(res.metadata.stopReason),
      },
      { started, firstToken, end: performance.now() },
    );
    if (loadedAt !== undefined) figures.loadMs = loadedAt - started;
    const images = req.turns.some((t) => t.images?.length);
    return {
      figures,
      ...(toolCalls.length ? { toolCalls } : {}),
      ...(images ? { notice: 'Images were not sent: the built-in engine reads text only.' } : {}),
    };
  }

  private failure(e: unknown, req: TurnRequest, model: LocalModel, contextSize: number): AppError {
    if (req.signal.aborted) return new AppError('aborted', 'Stopped.');
    const err = e as Error | undefined;
    const msg = err?.message ?? String(e);
    if (err?.name === 'DisposedError' || /disposed/i.test(msg))
      return new AppError('unavailable', `${model.name} was unloaded while it answered: send again to reload it.`);
    if (COMPRESS_FAILED.test(msg))
      return new AppError(
        'invalid_input',
        `This conversation is longer than the model's context (${contextSize} tokens): start a new conversation, or load ${model.name} with a longer context.`,
      );
    const app = toAppError(e);
    return app.code === 'internal' ? new AppError('upstream', `llama.cpp stopped: ${msg}`) : app;
  }

  /** What the model can do: chat and call tools (node-llama-cpp's function calling), or only embed. */
  async capabilities(model: string): Promise<string[]> {
    const m = await this.local.model(model).catch(() => undefined);
    if (!m) return [];
    return m.embedding ? ['embedding'] : ['completion', 'tools'];
  }

  async toolsUnsupported(model: string): Promise<string | undefined> {
    const m = await this.local.model(model).catch(() => undefined);
    return m?.embedding ? `${m.name} is an embedding model: it cannot call tools.` : undefined;
  }
}
