import type { LocalModel } from '@shared/contract/local-models';
import type { EngineStatus, LoadedModel } from '@shared/contract/local-engine';
import { AppError } from '@shared/errors';
import { untilStopped } from '../../http/until-aborted';
import type { HostGenerate, HostModel, HostRequest, HostResult, SpawnHost } from './protocol';
import { openLease, type Lease } from './lease';
import { ModelLoads, type Entry, type LoadOptions, type LoadsOptions } from './model-loads';
import { describeStop, HostSupervisor, type HostStop } from './supervisor';

export interface RuntimeOptions extends LoadsOptions {
  spawn: SpawnHost;
  /** `false` forces the CPU (tests); llama.cpp picks CUDA, Vulkan or Metal when it can by default. */
  gpu?: false | 'auto';
  /** Tests: the host honours test-only messages (crash, hang, garbage). */
  testHost?: boolean;
}

export interface AcquireOptions {
  signal?: AbortSignal;
  /** The conversation, so its next turn goes to the sequence that holds its prefix. */
  key?: string;
  /** Told while the request waits for a free sequence, with how many are ahead of it. */
  onWait?: (ahead: number) => void;
  /** Refuse (503) rather than wait behind this many. */
  maxQueue?: number;
  /** Embeddings: no chat sequence needed (the embedding context is separate). */
  noSlot?: boolean;
  /** Seconds the model may stay idle after this use before it unloads (LM Studio's `ttl`), instead of keep-alive. */
  ttl?: number;
}

/**
 * The built-in engine as main sees it: what is loaded, with which settings, held by whom, and which sequence each
 * reply uses. llama.cpp itself runs in the engine host (a process of its own); when that ends unexpectedly every
 * model is taken as unloaded, the replies it was writing fail with words that say why, and the next use starts a new
 * host and loads again, unless the same model and settings crashed three times within a minute.
 */
export class EngineRuntime {
  readonly host: HostSupervisor;
  private readonly loads: ModelLoads;
  private lastStop?: { at: string; message: string };
  private rss?: number;

  constructor(private readonly opts: RuntimeOptions) {
    this.host = new HostSupervisor({
      spawn: opts.spawn,
      log: opts.log,
      env: {
        ...(opts.gpu === false ? { HUBDESK_ENGINE_GPU: 'off' } : {}),
        ...(opts.testHost ? { HUBDESK_ENGINE_TEST: '1' } : {}),
      },
    });
    this.loads = new ModelLoads(opts, this.host);
    this.host.onExit((stop) => this.hostEnded(stop));
  }

  /** The host ended: everything it held is gone. Waiting requests try again (they had not started). */
  private hostEnded(stop: HostStop | undefined): void {
    const held = this.loads.lost(stop);
    this.rss = undefined;
    if (stop) {
      this.lastStop = { at: new Date().toISOString(), message: `The built-in engine stopped (${describeStop(stop)}).` };
      this.opts.log.warn('built-in engine lost its models', { models: held.map((e) => e.model.id) });
    }
  }

  status(): EngineStatus {
    const s: EngineStatus = {
      started: this.loads.started,
      loaded: [...this.loads.entries.values()].map((e) => this.describe(e)),
      keepAliveMinutes: this.opts.keepAliveMinutes(),
      threads: this.loads.threads(),
    };
    if (this.loads.gpu) s.gpu = this.loads.gpu;
    const pid = this.host.pid;
    if (pid !== undefined) s.host = { pid, ...(this.rss !== undefined ? { rssBytes: this.rss } : {}) };
    if (this.lastStop) s.lastStop = this.lastStop;
    return s;
  }

  /** The status with the host's memory asked for now (at most a second's wait). */
  async statusNow(): Promise<EngineStatus> {
    if (this.host.pid !== undefined) {
      const ac = AbortSignal.timeout(1_000);
      const r = await Promise.race([
        this.host.request<{ op: 'memory'; rssBytes: number }>({ op: 'memory' }).catch(() => undefined),
        new Promise<undefined>((ok) => ac.addEventListener('abort', () => ok(undefined))),
      ]);
      if (r) this.rss = r.rssBytes;
    }
    return this.status();
  }

  private describe(e: Entry): LoadedModel {
    const d: LoadedModel = {
      id: e.model.id,
      name: e.model.name,
      contextSize: e.contextSize,
      gpuLayers: e.gpuLayers,
      sequences: e.sequences,
      threads: e.threads,
      busy: e.queue.busy,
      waiting: e.queue.waiting,
      memoryBytes: e.memoryBytes,
      loadedAt: e.loadedAt,
      embedding: e.model.embedding,
      ...(e.model.reranker ? { reranker: true } : {}),
    };
    if (e.unloadAt !== undefined) d.unloadAt = new Date(e.unloadAt).toISOString();
    return d;
  }

  /** Loads the model with these settings (its plan's by default); loaded already with other settings, it reloads. */
  async load(model: LocalModel, opts: LoadOptions = {}): Promise<EngineStatus> {
    const e = await this.loads.ensure(model, opts);
    if (!e.leases) this.loads.arm(e);
    // With the host's memory now that it holds the model.
    return this.statusNow();
  }

  /** Unloads one model, or every loaded model without an id (a load under way finishes first). */
  async unload(id?: string): Promise<EngineStatus> {
    await this.loads.unload(id);
    return this.status();
  }

  /** Re-arms the idle timers after the keep-alive setting changed. */
  keepAliveChanged(): void {
    this.loads.keepAliveChanged();
  }

  /**
   * The model, loaded (with its plan) when it is not yet, and one of its sequences free for this use; past its
   * sequences, requests wait in order (`onWait` says how many are ahead). Held until `release`.
   */
  async acquire(model: LocalModel, opts: AcquireOptions = {}): Promise<Lease> {
    const { signal } = opts;
    let loadedHere = false;
    for (;;) {
      const wasLoaded = this.loads.entries.has(model.id);
      // Stop does not wait for a load: it goes on (for whoever else asked), the reply ends now.
      const e = await (signal ? untilStopped(this.loads.ensure(model, {}), signal) : this.loads.ensure(model, {}));
      loadedHere ||= !wasLoaded;
      if (signal?.aborted) {
        if (!e.leases) this.loads.arm(e);
        throw new AppError('aborted', 'Stopped.');
      }
      // The host ended between the load and now: load again.
      if (this.loads.entries.get(model.id) !== e) continue;
      if (opts.ttl !== undefined) e.idleMs = (opts.ttl * (this.opts.minuteMs ?? 60_000)) / 60;
      if (opts.noSlot) return this.lease(e, undefined, loadedHere);
      const slot = e.queue.take(opts.key);
      if (slot !== undefined) return this.lease(e, slot, loadedHere);
      if (opts.maxQueue !== undefined && e.queue.waiting >= opts.maxQueue)
        throw new AppError(
          'unavailable',
          `${model.name} is busy: ${e.sequences} requests are being answered and ${e.queue.waiting} are waiting. Try again shortly.`,
          { details: { retryAfter: 2 } },
        );
      await e.queue.wait(opts.signal, opts.onWait);
      if (this.loads.entries.get(model.id) !== e) continue;
      const free = e.queue.take(opts.key, true);
      if (free !== undefined) return this.lease(e, free, loadedHere);
    }
  }

  /** A use of `e`, holding `slot` (taken from its queue) until released. */
  private lease(e: Entry, slot: number | undefined, loaded: boolean): Lease {
    e.leases++;
    this.loads.arm(e);
    return openLease(e, slot, loaded, {
      host: this.host,
      released: () => {
        if (this.loads.entries.get(e.model.id) === e) this.loads.arm(e);
      },
    });
  }

  /** A use of a loaded model that holds no sequence (embeddings, ranking, counting), loaded first when it is not. */
  private async noSlot<R extends HostResult>(model: LocalModel, req: (host: HostModel) => HostRequest): Promise<R> {
    const lease = await this.acquire(model, { noSlot: true });
    try {
      const e = this.loads.entries.get(model.id);
      if (!e)
        throw new AppError('unavailable', `${model.name} was unloaded while it answered: send again to reload it.`);
      return await this.host.request<R>(req(e.host));
    } finally {
      lease.release();
    }
  }

  /** One vector per text, from the model's embedding context (opened on first use). */
  async embed(model: LocalModel, texts: string[]): Promise<number[][]> {
    if (model.reranker)
      throw new AppError('invalid_input', `${model.name} is a reranker: it scores documents (POST /v1/rerank).`);
    const r = await this.noSlot<{ op: 'embed'; vectors: number[][] }>(model, (host) => ({
      op: 'embed',
      model: host,
      texts,
    }));
    return r.vectors;
  }

  /**
   * One relevance score (0–1) per document for `query`, in their order, from a reranker's ranking context (loaded
   * on first use); and the tokens evaluated.
   */
  async rank(model: LocalModel, query: string, documents: string[]): Promise<{ scores: number[]; tokens: number }> {
    const r = await this.noSlot<{ op: 'rank'; scores: number[]; tokens: number }>(model, (host) => ({
      op: 'rank',
      model: host,
      query,
      documents,
    }));
    return { scores: r.scores, tokens: r.tokens };
  }

  /** The tokens a chat history renders to with the model's template. */
  async count(model: LocalModel, gen: Pick<HostGenerate, 'history' | 'functions'>): Promise<number> {
    const r = await this.noSlot<{ op: 'count'; tokens: number }>(model, (host) => ({
      op: 'count',
      model: host,
      ...gen,
    }));
    return r.tokens;
  }

  /** Unloads every model and ends the host. */
  async dispose(): Promise<void> {
    await this.unload();
    await this.host.dispose();
  }
}
