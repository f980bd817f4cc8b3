import type {
  ChatHistoryItem,
  ChatWrapper,
  ChatModelFunctions,
  Llama,
  LlamaChat,
  LlamaCompletion,
  LlamaContext,
  LlamaContextSequence,
  LlamaEmbeddingContext,
  LlamaGrammar,
  LlamaModel,
  LlamaRankingContext,
} from 'node-llama-cpp';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';
import type {
  HostComplete,
  HostGenerate,
  HostGenerated,
  HostGrammar,
  HostLoad,
  HostLoaded,
  HostModel,
  HostPiece,
} from '../host/protocol';
import { defaultThreads } from '../host/threads';
import { llamaErrors, startLlama } from './llama';
import { completeText } from './complete';
import { roomAfter } from './context-room';
import { loadError } from './load-errors';

// Runs in the engine host only: the one module set that imports node-llama-cpp. Main decides what is loaded, with
// which settings and which sequence each generation uses; this executes it.

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

/** Without a load plan, a context no longer than this (the model's trained length may be far larger). */
const DEFAULT_CONTEXT = 4096;

/** Grammars kept compiled (an agent sends the same schema with every request). */
const GRAMMAR_CACHE = 16;

export class HostModels {
  private readonly open = new Map<string, OpenModel>();
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(private readonly opts: { log: Logger; gpu: false | 'auto' }) {}

  /** llama.cpp, started once for the process (startLlama keeps it, and tries again after a failed start). */
  private start(): Promise<Llama> {
    return startLlama({ gpu: this.opts.gpu, log: this.opts.log });
  }

  /** Loads the weights and opens the model's context with its sequences; on any failure nothing stays loaded. */
  async load(req: HostLoad): Promise<HostLoaded> {
    const llama = await this.start();
    await this.unload(req.model.id);
    const { model } = req;
    const mark = llamaErrors.mark();
    const layers = llama.gpu === false ? 0 : req.gpuLayers;
    let m: LlamaModel;
    try {
      m = await llama.loadModel({ modelPath: model.path, ...(layers !== undefined ? { gpuLayers: layers } : {}) });
    } catch (e) {
      throw loadError(e, { name: model.name, log: await llamaErrors.after(mark), stage: 'model' });
    }
    const contextSize = req.contextSize ?? Math.min(m.trainContextSize, DEFAULT_CONTEXT);
    const threads = req.threads ?? defaultThreads(llama.cpuMathCores);
    const entry: OpenModel = { model: m, contextSize, sequences: [], chats: [], completions: [], threads };
    try {
      if (model.reranker) {
        // A whole query and document in one batch: an encoder's attention is not causal, and llama.cpp aborts on
        // such an input split across batches (the default batch is 512 tokens).
        entry.ranking = await m.createRankingContext({ contextSize, batchSize: contextSize, threads });
      } else if (model.embedding) {
        entry.embedding = Promise.resolve(await m.createEmbeddingContext({ contextSize, threads }));
      } else {
        entry.context = await m.createContext({ contextSize, threads, sequences: req.sequences });
      }
    } catch (e) {
      await m.dispose().catch(() => {});
      throw loadError(e, { name: model.name, contextSize, log: await llamaErrors.after(mark), stage: 'context' });
    }
    this.open.set(model.id, entry);
    this.opts.log.info('local model loaded', { id: model.id, contextSize, gpuLayers: m.gpuLayers, threads });
    return {
      contextSize,
      gpuLayers: m.gpuLayers,
      sequences: model.embedding || model.reranker ? 1 : req.sequences,
      threads,
      memoryBytes: this.memoryOf(entry),
      gpu: llama.gpu || 'cpu',
    };
  }

  private memoryOf(e: OpenModel): number {
    const ctx = e.context?.memoryUsage;
    return e.model.size + (ctx ? ctx.ram + ctx.vram : 0);
  }

  /** Disposes everything the model holds, awaited, so its memory returns before this resolves. */
  async unload(id: string): Promise<void> {
    const e = this.open.get(id);
    if (!e) return;
    this.open.delete(id);
    for (const chat of e.chats) chat?.dispose();
    for (const c of e.completions) c?.dispose();
    const emb = await e.embedding?.catch(() => undefined);
    await emb?.dispose().catch(() => {});
    await e.ranking?.dispose().catch(() => {});
    await e.context?.dispose().catch(() => {});
    await e.model.dispose().catch(() => {});
    this.opts.log.info('local model unloaded', { id });
  }

  /** The slot's sequence of the model's chat context (an embedding model or a reranker has none). */
  private sequence(e: OpenModel, model: HostModel, slot: number): LlamaContextSequence {
    if (!e.context)
      throw new AppError('invalid_input', `${model.name} is ${model.reranker ? 'a reranker' : 'an embedding model'}.`);
    let seq = e.sequences[slot];
    if (!seq || seq.disposed) seq = e.sequences[slot] = e.context.getSequence();
    return seq;
  }

  private entry(model: HostModel): OpenModel {
    const e = this.open.get(model.id);
    if (!e) throw new AppError('unavailable', `${model.name} was unloaded while it answered: send again to reload it.`);
    return e;
  }

  /** A compiled grammar, from the cache when the same one was asked before (least recently used goes first). */
  private async grammar(g: HostGrammar): Promise<LlamaGrammar> {
    const key = JSON.stringify(g);
    let p = this.grammars.get(key);
    if (p) this.grammars.delete(key);
    else {
      const llama = await this.start();
      p = g.type === 'json' ? llama.getGrammarFor('json') : llama.createGrammarForJsonSchema(g.schema as never);
      p.catch(() => this.grammars.delete(key));
    }
    this.grammars.set(key, p);
    if (this.grammars.size > GRAMMAR_CACHE) this.grammars.delete(this.grammars.keys().next().value!);
    return p;
  }

  /**
   * How many tokens the rendered history is (the template, the functions' documentation and all): refused when it
   * leaves no room to answer, so a client is told rather than answered from a silently shortened prompt.
   */
  private promptRoom(chat: LlamaChat, req: HostGenerate, contextSize: number): number {
    return roomAfter(renderedTokens(chat.chatWrapper, chat.model, req), contextSize, req.model.name);
  }

  /** The tokens a history renders to with the model's own template, as a reply would evaluate it. */
  async count(req: Pick<HostGenerate, 'model' | 'history' | 'functions'>): Promise<number> {
    const e = this.entry(req.model);
    if (!e.wrapper) {
      const { resolveChatWrapper } = await import('node-llama-cpp');
      e.wrapper = resolveChatWrapper(e.model);
    }
    return renderedTokens(e.wrapper, e.model, req);
  }

  /** One reply on the sequence main chose, its pieces streamed through `emit`. */
  async generate(req: HostGenerate, emit: (p: HostPiece) => void, signal: AbortSignal): Promise<HostGenerated> {
    const e = this.entry(req.model);
    const sequence = this.sequence(e, req.model, req.slot);
    const context = sequence.context;
    let chat = e.chats[req.slot];
    if (!chat || chat.disposed) {
      const { LlamaChat } = await import('node-llama-cpp');
      chat = e.chats[req.slot] = new LlamaChat({ contextSequence: sequence });
    }
    const o = req.options;
    // Without a limit a model that never ends would shift its context forever.
    let maxTokens = o.maxTokens ?? context.contextSize;
    if (req.fitContext) maxTokens = Math.min(maxTokens, this.promptRoom(chat, req, context.contextSize));
    const grammar = req.grammar ? await this.grammar(req.grammar) : undefined;
    const before = chat.sequence.tokenMeter.getState();
    const res = await chat.generateResponse(req.history as ChatHistoryItem[], {
      signal,
      stopOnAbortSignal: true,
      maxTokens,
      temperature: o.temperature,
      ...(o.topP !== undefined ? { topP: o.topP } : {}),
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      ...(o.stop?.length ? { customStopTriggers: o.stop } : {}),
      ...(o.noThoughts ? { budgets: { thoughtTokens: 0 } } : {}),
      ...(grammar
        ? { grammar }
        : req.functions
          ? {
              functions: req.functions as ChatModelFunctions,
              onFunctionCallParamsChunk: () => emit(['call', '', 0]),
            }
          : {}),
      onResponseChunk: (c) => {
        if (!c.text) return;
        const tokens = c.tokens.length;
        if (c.type === undefined) emit(['text', c.text, tokens]);
        else if (c.segmentType === 'thought' && !o.noThoughts) emit(['thought', c.text, tokens]);
      },
    });
    const after = chat.sequence.tokenMeter.getState();
    const trigger = res.metadata.stopReason === 'customStopTrigger' ? res.metadata.customStopTrigger : undefined;
    return {
      stopReason: signal.aborted ? 'abort' : res.metadata.stopReason,
      ...(trigger ? { stopTrigger: trigger.filter((t) => typeof t === 'string').join('') } : {}),
      functionCalls: (res.functionCalls ?? []).map((fc) => ({ functionName: fc.functionName, params: fc.params })),
      inputTokens: after.usedInputTokens - before.usedInputTokens,
      outputTokens: after.usedOutputTokens - before.usedOutputTokens,
    };
  }

  /** A plain-text completion (or fill-in-the-middle) on the sequence main chose. */
  async complete(req: HostComplete, emit: (p: HostPiece) => void, signal: AbortSignal): Promise<HostGenerated> {
    const e = this.entry(req.model);
    const sequence = this.sequence(e, req.model, req.slot);
    let completion = e.completions[req.slot];
    if (!completion || completion.disposed) {
      const { LlamaCompletion } = await import('node-llama-cpp');
      completion = e.completions[req.slot] = new LlamaCompletion({ contextSequence: sequence });
    }
    const grammar = req.grammar ? await this.grammar(req.grammar) : undefined;
    return completeText(completion, sequence, req, { grammar, emit, signal });
  }

  /** One vector per text, from the model's embedding context (opened on first use for a chat model). */
  async embed(model: HostModel, texts: string[]): Promise<number[][]> {
    const e = this.entry(model);
    e.embedding ??= e.model.createEmbeddingContext({ contextSize: e.contextSize, threads: e.threads });
    const ctx = await e.embedding.catch((err: unknown) => {
      e.embedding = undefined;
      throw loadError(err, { name: model.name, contextSize: e.contextSize, log: [], stage: 'context' });
    });
    const out: number[][] = [];
    for (const text of texts) {
      try {
        out.push(Array.from((await ctx.getEmbeddingFor(text)).vector));
      } catch (err) {
        throw new AppError(
          'invalid_input',
          `${model.name} could not embed this text (${(err as Error).message}): split it into shorter pieces.`,
        );
      }
    }
    return out;
  }

  /**
   * One relevance score (0–1) per document, in their order. A document that does not fit the context with the query
   * is refused, never cut; the message names the longest one and the tokens it needs.
   */
  async rank(model: HostModel, query: string, documents: string[]): Promise<{ scores: number[]; tokens: number }> {
    const e = this.entry(model);
    if (!e.ranking) throw new AppError('invalid_input', `${model.name} is not a reranker.`);
    const ranking = e.ranking;
    const lengths = documents.map((d) => ranking.calculateInputLength(query, d));
    const longest = lengths.reduce((at, n, i) => (n > lengths[at] ? i : at), 0);
    if (documents.length && lengths[longest] >= ranking.contextSize)
      throw new AppError(
        'invalid_input',
        `Document ${longest} and the query are ${lengths[longest]} tokens, more than the ${ranking.contextSize} tokens of ${model.name}'s context: split it into shorter pieces.`,
        {
          details: {
            wireCode: 'exceed_context_size_error',
            index: longest,
            tokens: lengths[longest],
            contextSize: ranking.contextSize,
          },
        },
      );
    return { scores: await ranking.rankAll(query, documents), tokens: lengths.reduce((a, n) => a + n, 0) };
  }

  /** How many tokens `text` is for this model. */
  tokenize(id: string, text: string): number {
    const e = this.open.get(id);
    if (!e) throw new AppError('not_found', 'That model is not loaded.');
    return e.model.tokenize(text, true).length;
  }

  async dispose(): Promise<void> {
    for (const id of [...this.open.keys()]) await this.unload(id);
  }
}

/** The tokens `history` renders to (the template, the functions' documentation and all). */
function renderedTokens(
  wrapper: ChatWrapper,
  model: LlamaModel,
  req: Pick<HostGenerate, 'history' | 'functions'>,
): number {
  const state = wrapper.generateContextState({
    chatHistory: req.history as ChatHistoryItem[],
    ...(req.functions ? { availableFunctions: req.functions as ChatModelFunctions } : {}),
    documentFunctionParams: true,
  });
  return state.contextText.tokenize(model.tokenizer).length;
}
