import type { Llama, LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';
import type {
  HostComplete,
  HostGenerate,
  HostGenerated,
  HostLoad,
  HostLoaded,
  HostModel,
  HostPiece,
} from '../host/protocol';
import { defaultThreads } from '../host/threads';
import { llamaErrors, startLlama } from './llama';
import { countTokens, generateReply } from './chat-reply';
import { completeText } from './complete';
import { embedTexts } from './embeddings';
import { GrammarCache } from './grammars';
import { loadError } from './load-errors';
import type { OpenModel } from './open-model';
import { rankDocuments } from './ranking';

// Runs in the engine host only: the one module set that imports node-llama-cpp. Main decides what is loaded, with
// which settings and which sequence each generation uses; this executes it.

/** Without a load plan, a context no longer than this (the model's trained length may be far larger). */
const DEFAULT_CONTEXT = 4096;

export class HostModels {
  private readonly open = new Map<string, OpenModel>();
  private readonly grammars = new GrammarCache(() => this.start());

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

  /** The tokens a history renders to, as a reply would evaluate it (`countTokens`). */
  async count(req: Pick<HostGenerate, 'model' | 'history' | 'functions'>): Promise<number> {
    return countTokens(this.entry(req.model), req);
  }

  /** One reply on the sequence main chose (`generateReply`). */
  async generate(req: HostGenerate, emit: (p: HostPiece) => void, signal: AbortSignal): Promise<HostGenerated> {
    const e = this.entry(req.model);
    return generateReply(e, this.sequence(e, req.model, req.slot), req, { grammars: this.grammars, emit, signal });
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
    const grammar = req.grammar ? await this.grammars.get(req.grammar) : undefined;
    return completeText(completion, sequence, req, { grammar, emit, signal });
  }

  /** One vector per text (`embedTexts`). */
  async embed(model: HostModel, texts: string[]): Promise<number[][]> {
    return embedTexts(this.entry(model), model, texts);
  }

  /** One relevance score (0–1) per document, in their order (`rankDocuments`). */
  async rank(model: HostModel, query: string, documents: string[]): Promise<{ scores: number[]; tokens: number }> {
    return rankDocuments(this.entry(model), model, query, documents);
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
