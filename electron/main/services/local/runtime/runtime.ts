import type { Llama, LlamaModel } from 'node-llama-cpp';
import type { EngineStatus, LoadedModel, LocalModel } from '@shared/contract/local';
import { AppError, toAppError } from '@shared/errors';
import type { Logger } from '../../log';
import type { LoadedHandle } from './handle';
import { llamaErrors, startLlama } from './llama';
import { loadError } from './load-errors';

export interface RuntimeOptions {
  log: Logger;
  keepAliveMinutes: () => number;
  /** Every part's path of a model (split GGUFs load from the first; llama.cpp finds the rest). */
  parts: (model: LocalModel) => string[];
  /**
   * CPU threads per context: this option (tests, the bench), else local.json's `threads`, else (0) llama.cpp's
   * choice. On these 2-core machines one thread is ~15× faster than two for the tiny test model.
   */
  threads?: number;
  configThreads?: () => number;
  /** `false` forces the CPU (tests); llama.cpp picks CUDA, Vulkan or Metal when it can by default. */
  gpu?: false | 'auto';
  /** Tests: how long a keep-alive minute lasts, so an idle unload needs no real minute. */
  minuteMs?: number;
}

export interface LoadOptions {
  contextSize?: number;
  gpuLayers?: number;
}

/** A loaded model held for one use (a chat turn, an embedding call): it is not unloaded while held. */
export interface Lease {
  readonly model: LocalModel;
  /** node-llama-cpp's objects (a `LoadedHandle`), typed loosely so that importing this file loads nothing. */
  readonly handle: unknown;
  release(): void;
}

interface Entry {
  model: LocalModel;
  handle: LoadedHandle;
  contextSize: number;
  gpuLayers: number;
  loadedAt: string;
  leases: number;
  timer?: ReturnType<typeof setTimeout>;
  unloadAt?: number;
}

/** Without a load plan, a context no longer than this (the model's trained length may be far larger). */
const DEFAULT_CONTEXT = 4096;

/** llama.cpp in this process, through node-llama-cpp: imported on first use, models loaded and unloaded here. */
export class LlamaRuntime {
  private llama?: Promise<Llama>;
  private started?: Llama;
  private startError?: AppError;
  private readonly errors = llamaErrors;
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, { want: LoadOptions; done: Promise<Entry> }>();

  constructor(private readonly opts: RuntimeOptions) {}

  status(): EngineStatus {
    const s: EngineStatus = {
      started: !!this.started,
      loaded: [...this.entries.values()].map((e) => this.describe(e)),
      keepAliveMinutes: this.opts.keepAliveMinutes(),
    };
    if (this.started) s.gpu = this.started.gpu || 'cpu';
    if (this.startError) s.error = this.startError.toJSON();
    return s;
  }

  private describe(e: Entry): LoadedModel {
    const { model, context } = e.handle;
    const ctx = context?.memoryUsage;
    const d: LoadedModel = {
      id: e.model.id,
      name: e.model.name,
      contextSize: e.contextSize,
      gpuLayers: e.gpuLayers,
      memoryBytes: model.size + (ctx ? ctx.ram + ctx.vram : 0),
      loadedAt: e.loadedAt,
      embedding: e.model.embedding,
    };
    if (e.unloadAt !== undefined) d.unloadAt = new Date(e.unloadAt).toISOString();
    return d;
  }

  /** Loads the model with these settings (its plan's by default); loaded already with other settings, it reloads. */
  async load(model: LocalModel, opts: LoadOptions = {}): Promise<EngineStatus> {
    const e = await this.ensure(model, opts);
    if (!e.leases) this.arm(e);
    return this.status();
  }

  private async ensure(model: LocalModel, asked: LoadOptions): Promise<Entry> {
    // On the CPU every model has 0 GPU layers: asking for more is not another setting.
    const want = this.started?.gpu === false && asked.gpuLayers ? { ...asked, gpuLayers: 0 } : asked;
    for (;;) {
      const pending = this.loading.get(model.id);
      if (pending) {
        // The same load asked twice waits for the first and shares its outcome.
        if (!differs(pending.want, want)) return pending.done;
        await pending.done.catch(() => {});
        continue;
      }
      const cur = this.entries.get(model.id);
      if (cur && !differs(cur, want)) return cur;
      const done = (async () => {
        if (cur) await this.drop(cur);
        return this.open(model, want);
      })();
      this.loading.set(model.id, { want, done });
      try {
        const e = await done;
        this.entries.set(model.id, e);
        return e;
      } finally {
        this.loading.delete(model.id);
      }
    }
  }

  private start(): Promise<Llama> {
    this.llama ??= startLlama({ gpu: this.opts.gpu ?? 'auto', log: this.opts.log }).then(
      (l) => (this.started = l),
      (e: unknown) => {
        this.startError = toAppError(e);
        this.llama = undefined;
        throw this.startError;
      },
    );
    return this.llama;
  }

  private threads(): number | undefined {
    return this.opts.threads ?? (this.opts.configThreads?.() || undefined);
  }

  /** Loads the weights and opens the model's context; on any failure nothing stays loaded. */
  private async open(model: LocalModel, want: LoadOptions): Promise<Entry> {
    const llama = await this.start();
    const name = model.title || model.name;
    const mark = this.errors.mark();
    const path = this.opts.parts(model)[0] ?? model.path;
    const layers = llama.gpu === false ? 0 : (want.gpuLayers ?? model.plan?.gpuLayers);
    let m: LlamaModel;
    try {
      m = await llama.loadModel({ modelPath: path, ...(layers !== undefined ? { gpuLayers: layers } : {}) });
    } catch (e) {
      throw loadError(e, { name, log: await this.errors.after(mark), stage: 'model' });
    }
    const contextSize = want.contextSize ?? model.plan?.contextSize ?? Math.min(m.trainContextSize, DEFAULT_CONTEXT);
    const threads = this.threads();
    const handle: LoadedHandle = { llama, model: m, queue: Promise.resolve() };
    try {
      if (model.embedding) {
        const ctx = await m.createEmbeddingContext({ contextSize, threads });
        handle.embedding = Promise.resolve(ctx);
      } else {
        (handle as { context?: unknown }).context = await m.createContext({ contextSize, threads, sequences: 1 });
      }
    } catch (e) {
      await m.dispose().catch(() => {});
      throw loadError(e, { name, contextSize, log: await this.errors.after(mark), stage: 'context' });
    }
    this.opts.log.info('local model loaded', { id: model.id, contextSize, gpuLayers: m.gpuLayers, threads });
    return {
      model,
      handle,
      contextSize,
      gpuLayers: m.gpuLayers,
      loadedAt: new Date().toISOString(),
      leases: 0,
    };
  }

  /** Disposes everything the entry holds, awaited, so its memory returns before this resolves. */
  private async drop(e: Entry): Promise<void> {
    if (e.timer) clearTimeout(e.timer);
    const h = e.handle;
    h.chat?.dispose({ disposeSequence: true });
    h.chat = undefined;
    const emb = await h.embedding?.catch(() => undefined);
    await emb?.dispose().catch(() => {});
    await h.context?.dispose().catch(() => {});
    await h.model.dispose().catch(() => {});
    this.opts.log.info('local model unloaded', { id: e.model.id });
  }

  /** Unloads one model, or every loaded model without an id (a load under way finishes first). */
  async unload(id?: string): Promise<EngineStatus> {
    const ids = id ? [id] : [...new Set([...this.entries.keys(), ...this.loading.keys()])];
    for (const i of ids) {
      await this.loading.get(i)?.done.catch(() => {});
      const e = this.entries.get(i);
      if (!e) continue;
      this.entries.delete(i);
      await this.drop(e);
    }
    return this.status();
  }

  /** The idle timer: the model unloads after keep-alive minutes without use (0 keeps it). */
  private arm(e: Entry): void {
    if (e.timer) clearTimeout(e.timer);
    e.timer = undefined;
    e.unloadAt = undefined;
    const minutes = this.opts.keepAliveMinutes();
    if (e.leases > 0 || minutes <= 0) return;
    const ms = minutes * (this.opts.minuteMs ?? 60_000);
    e.unloadAt = Date.now() + ms;
    e.timer = setTimeout(() => {
      if (this.entries.get(e.model.id) === e && !e.leases) void this.unload(e.model.id);
    }, ms);
    e.timer.unref?.();
  }

  /** Re-arms the idle timers after the keep-alive setting changed. */
  keepAliveChanged(): void {
    for (const e of this.entries.values()) this.arm(e);
  }

  /** The model, loaded (with its plan) when it is not yet; held until `release`. */
  async acquire(model: LocalModel, signal?: AbortSignal): Promise<Lease> {
    const e = await this.ensure(model, {});
    if (signal?.aborted) {
      if (!e.leases) this.arm(e);
      throw new AppError('aborted', 'Stopped.');
    }
    e.leases++;
    this.arm(e);
    let held = true;
    return {
      model,
      handle: e.handle,
      release: () => {
        if (!held) return;
        held = false;
        e.leases--;
        if (this.entries.get(model.id) === e) this.arm(e);
      },
    };
  }

  /** One vector per text, from the model's embedding context (opened on first use). */
  async embed(model: LocalModel, texts: string[]): Promise<number[][]> {
    const lease = await this.acquire(model);
    const h = lease.handle as LoadedHandle;
    try {
      const entry = this.entries.get(model.id);
      h.embedding ??= h.model.createEmbeddingContext({ contextSize: entry?.contextSize, threads: this.threads() });
      const ctx = await h.embedding.catch((e: unknown) => {
        h.embedding = undefined;
        throw loadError(e, { name: model.name, contextSize: entry?.contextSize, log: [], stage: 'context' });
      });
      const out: number[][] = [];
      for (const text of texts) {
        try {
          out.push(Array.from((await ctx.getEmbeddingFor(text)).vector));
        } catch (e) {
          throw new AppError(
            'invalid_input',
            `${model.name} could not embed this text (${(e as Error).message}): split it into shorter pieces.`,
          );
        }
      }
      return out;
    } finally {
      lease.release();
    }
  }

  /** Unloads every model; llama.cpp itself stays for the process (its binding cannot be started twice cleanly). */
  async dispose(): Promise<void> {
    await this.unload();
  }
}

/** Whether a load asks for other settings than these (an unset one takes whatever is there). */
function differs(cur: LoadOptions, want: LoadOptions): boolean {
  return (
    (want.contextSize !== undefined && want.contextSize !== cur.contextSize) ||
    (want.gpuLayers !== undefined && want.gpuLayers !== cur.gpuLayers)
  );
}
