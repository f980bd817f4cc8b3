import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { LocalModel } from '@shared/contract/local-models';
import type { Snippet } from '@shared/contract/snippets';
import { LOCAL_SERVER_KEY_ENV } from '@shared/environment';
import { AppError } from '@shared/errors';
import { estimateKvShape, fitQuant, kvCacheBytes, memoryForTokens, memoryTotal } from '@shared/fit';
import type { Turn } from '../../chat/replies/turns';
import { untilStopped } from '../../http/until-aborted';
import { openAICode } from '../openai-code';
import { retryable } from '../reply-action';
import type { EngineKind, EngineRef, Footprint } from '../types';
import { LocalEngine, type LocalPort } from './engine';

const LOCAL_KEY_ENV = LOCAL_SERVER_KEY_ENV;

/**
 * A built-in model's memory before it is loaded: the fit verdict's sum (file + KV cache + runtime) for the context
 * it will load with, from the load plan's parts (the file's own KV shape, every sequence); without a plan, the KV
 * shape estimated with the layer count read from the file.
 */
function needBytes(m: LocalModel, ctx: number | undefined): number {
  const plan = m.plan;
  // The load plan's figure (the fit verdict's), for the context asked: the same number the library shows.
  if (plan?.memory) {
    const seqs = plan.sequences ?? 1;
    return memoryTotal(memoryForTokens(plan.memory, plan.contextSize * seqs, (ctx ?? plan.contextSize) * seqs));
  }
  const contextSize = ctx ?? plan?.contextSize ?? 4096;
  const shape = { ...estimateKvShape(undefined), ...(m.plan?.layers ? { layers: m.plan.layers } : {}) };
  const hw = { ramBytes: Number.MAX_SAFE_INTEGER, vramBytes: 0, unified: false };
  return fitQuant(m.sizeBytes, kvCacheBytes(shape, contextSize), hw, contextSize).needBytes;
}

/** The built-in llama.cpp engine: GGUFs on disk by local id, run in the engine host. */
export class LocalKind implements EngineKind {
  readonly backend = 'local' as const;
  readonly toolHistoryWithoutTools = true;
  private readonly chat?: LocalEngine;

  constructor(private readonly local: LocalPort | undefined) {
    if (local) this.chat = new LocalEngine(local);
  }

  private port(): LocalPort {
    if (!this.local) throw new AppError('unavailable', 'The built-in engine is not available in this run.');
    return this.local;
  }

  engine(): LocalEngine {
    this.port();
    return this.chat!;
  }

  assertReady(): void {}

  server(): string {
    return 'local';
  }

  exportName(): string {
    return 'built-in llama.cpp engine';
  }

  async describe(ref: EngineRef): Promise<{ label: string; names: string[] }> {
    const m = await this.local?.model(ref.model).catch(() => undefined);
    return { label: `Built-in · ${m?.name ?? ref.model}`, names: m ? [m.name, m.title ?? ''] : [] };
  }

  /** The loaded model's context, else its load plan's. */
  async contextSize(ref: EngineRef): Promise<number | undefined> {
    const local = this.port();
    const loaded = local.runtime.status().loaded.find((l) => l.id === ref.model);
    return loaded?.contextSize ?? (await local.model(ref.model)).plan?.contextSize;
  }

  async load(ref: EngineRef, contextSize: number | undefined, signal: AbortSignal): Promise<void> {
    await untilStopped(this.port().load(ref.model, contextSize ? { contextSize } : {}), signal);
  }

  async footprint(ref: EngineRef, contextSize: number | undefined): Promise<Footprint> {
    const m = await this.local?.model(ref.model).catch(() => undefined);
    const entry = this.local?.runtime.status().loaded.find((l) => l.id === ref.model);
    const loaded = !!entry && (contextSize === undefined || entry.contextSize === contextSize);
    const bytes = loaded ? entry.memoryBytes : m ? needBytes(m, contextSize) : undefined;
    return {
      where: 'local',
      engine: 'The built-in engine',
      name: m?.name ?? ref.model,
      key: `local\n${ref.model}`,
      loaded,
      // Its sequences answer together; loaded with the plan, it has the plan's.
      parallel: (loaded ? entry.sequences : m?.plan?.sequences) ?? 1,
      ...(bytes ? { bytes } : {}),
    };
  }

  /**
   * The OpenAI clients and curl against HubDesk's own local server: the model id is the server's, the key comes from
   * HUBDESK_LOCAL_SERVER_KEY (the variable HubDesk itself reads), never its value.
   */
  async code(meta: ConversationMeta, turns: Turn[]): Promise<{ snippets: Snippet[]; notice: string }> {
    const port = this.port().server.status().port;
    const { snippets } = await openAICode(meta, turns, {
      name: "HubDesk's local server",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      keyEnv: LOCAL_KEY_ENV,
      note: 'It must be on: in HubDesk, Local models → Built-in engine → Server (with the same key).',
    });
    return {
      snippets,
      notice: `The code talks to HubDesk's local server, which must be on (Local models → Built-in engine → Server). It reads the server's key from ${LOCAL_KEY_ENV}: HubDesk does not write keys into code.`,
    };
  }

  /** Its errors already say what failed and what to do (local/engine.ts, the load errors): they get the button. */
  replyError(err: AppError): AppError {
    return retryable(err);
  }

  async embed(model: string, texts: string[]): Promise<number[][]> {
    return (await this.port().embed(model, texts)).embeddings;
  }

  embedError(err: AppError, model: string) {
    if (err.code !== 'not_found') return undefined;
    return {
      code: 'not_found' as const,
      message: `The embedding model ${model} is not among the built-in engine's models: download it in Models, or choose another.`,
    };
  }
}
