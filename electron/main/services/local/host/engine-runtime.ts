import type { LocalModel } from '@shared/contract/local-models';
import type { EngineStatus, LoadedModel } from '@shared/contract/local-engine';
import { AppError } from '@shared/errors';
import { untilStopped } from '../../http/until-aborted';
import type { Logger } from '../../log';
import type { HostGenerate, HostLoaded, HostModel, HostRequest, HostResult, SpawnHost } from './protocol';
import { CrashLog } from './crash-log';
import { openLease, type Lease } from './lease';
import { Sequences } from './sequences';
import { describeStop, EngineStopped, HostSupervisor, type HostStop } from './supervisor';
import { defaultThreads } from './threads';

export interface RuntimeOptions {
  log: Logger;
  spawn: SpawnHost;
  keepAliveMinutes: () => number;
  /** Every part's path of a model (split GGUFs load from the first; llama.cpp finds the rest). */
  parts: (model: LocalModel) => string[];
  /** CPU threads per context: this option (tests, the bench), else local.json's `threads`, else the default rule. */
  threads?: number;
  configThreads?: () => number;
  /** `false` forces the CPU (tests); llama.cpp picks CUDA, Vulkan or Metal when it can by default. */
  gpu?: false | 'auto';
  /** Tests: how long a keep-alive minute lasts, so an idle unload needs no real minute. */
  minuteMs?: number;
  /** Tests: the host honours test-only messages (crash, hang, garbage). */
  testHost?: boolean;
}

export interface LoadOptions {
  contextSize?: number;
  gpuLayers?: number;
  /** Parallel sequences; the plan's (what memory allows) by default. */
  sequences?: number;
  /** CPU threads for this load (the Load dialog); the engine's setting by default. */
  threads?: number;
}

interface Entry {
  model: LocalModel;
  host: HostModel;
  /** The settings it was asked to load with: crashes are counted against them. */
  crashKey: string;
  contextSize: number;
  gpuLayers: number;
  sequences: number;
  threads: number;
  memoryBytes: number;
  loadedAt: string;
  /** Its sequences, and the requests waiting for one. */
  queue: Sequences;
  /** Uses that keep it loaded (a reply, an embedding call). */
  leases: number;
  /** Idle time before it unloads, when a request set one (`ttl`); else the keep-alive setting's. */
  idleMs?: number;
  timer?: ReturnType<typeof setTimeout>;
  unloadAt?: number;
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

/** Without a load plan that says more, one sequence. At most this many in any case (LM Studio's default is 4). */
const MAX_SEQUENCES = 16;

/**
 * The built-in engine as main sees it: what is loaded, with which settings, held by whom, and which sequence each
 * reply uses. llama.cpp itself runs in the engine host (a process of its own); when that ends unexpectedly every
 * model is taken as unloaded, the replies it was writing fail with words that say why, and the next use starts a new
 * host and loads again, unless the same model and settings crashed three times within a minute.
 */
export class EngineRuntime {
  readonly host: HostSupervisor;
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, { want: LoadOptions; done: Promise<Entry> }>();
  private readonly crashes = new CrashLog();
  private gpu?: string;
  private started = false;
  private lastStop?: { at: string; message: string };
  private rss?: number;
  /** The default rule's count as the host applied it (it knows llama.cpp's math cores). */
  private autoThreads?: number;

  constructor(private readonly opts: RuntimeOptions) {
    this.host = new HostSupervisor({
      spawn: opts.spawn,
      log: opts.log,
      env: {
        ...(opts.gpu === false ? { HUBDESK_ENGINE_GPU: 'off' } : {}),
        ...(opts.testHost ? { HUBDESK_ENGINE_TEST: '1' } : {}),
      },
    });
    this.host.onExit((stop) => this.hostEnded(stop));
  }

  /** The host ended: everything it held is gone. Waiting requests try again (they had not started). */
  private hostEnded(stop: HostStop | undefined): void {
    const held = [...this.entries.values()];
    this.entries.clear();
    this.rss = undefined;
    // The crash counts against the models at work when it came (a load counts its own, in open()); an idle crash
    // against every model loaded.
    const busy = held.filter((e) => e.leases > 0);
    const blamed = busy.length ? busy : this.loading.size ? [] : held;
    for (const e of held) {
      if (e.timer) clearTimeout(e.timer);
      if (stop && blamed.includes(e)) this.crashes.add(e.crashKey);
      e.queue.wakeAll();
    }
    if (stop) {
      this.lastStop = { at: new Date().toISOString(), message: `The built-in engine stopped (${describeStop(stop)}).` };
      this.opts.log.warn('built-in engine lost its models', { models: held.map((e) => e.model.id) });
    }
  }

  /** The threads a load uses: the user's (or the tests') count, else the default rule's (the host's, once known). */
  threads(): { value: number; auto: boolean } {
    const set = this.opts.threads ?? this.opts.configThreads?.() ?? 0;
    return set > 0 ? { value: set, auto: false } : { value: this.autoThreads ?? defaultThreads(), auto: true };
  }

  status(): EngineStatus {
    const s: EngineStatus = {
      started: this.started,
      loaded: [...this.entries.values()].map((e) => this.describe(e)),
      keepAliveMinutes: this.opts.keepAliveMinutes(),
      threads: this.threads(),
    };
    if (this.gpu) s.gpu = this.gpu;
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
    const e = await this.ensure(model, opts);
    if (!e.leases) this.arm(e);
    // With the host's memory now that it holds the model.
    return this.statusNow();
  }

  private async ensure(model: LocalModel, asked: LoadOptions): Promise<Entry> {
    // On the CPU every model has 0 GPU layers: asking for more is not another setting.
    const want = this.gpu === 'cpu' && asked.gpuLayers ? { ...asked, gpuLayers: 0 } : asked;
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

  /** Loads it in the host; a crash there is said as a load failure, and counted against these settings. */
  private async open(model: LocalModel, want: LoadOptions): Promise<Entry> {
    const name = model.title || model.name;
    const host: HostModel = {
      id: model.id,
      name,
      path: this.opts.parts(model)[0] ?? model.path,
      embedding: model.embedding,
      ...(model.reranker ? { reranker: true } : {}),
    };
    const contextSize = want.contextSize ?? model.plan?.contextSize;
    const gpuLayers = want.gpuLayers ?? model.plan?.gpuLayers;
    const sequences = Math.min(MAX_SEQUENCES, Math.max(1, want.sequences ?? model.plan?.sequences ?? 1));
    const key = crashKey(model.id, { contextSize, gpuLayers });
    const refused = this.crashes.refusal(key);
    if (refused) throw this.crashLoop(name, contextSize, gpuLayers);
    const threads = want.threads ? { value: want.threads, auto: false } : this.threads();
    let loaded: HostLoaded;
    try {
      ({ loaded } = await this.host.request<{ op: 'load'; loaded: HostLoaded }>({
        op: 'load',
        load: {
          model: host,
          sequences: model.embedding || model.reranker ? 1 : sequences,
          ...(threads.auto ? {} : { threads: threads.value }),
          ...(contextSize !== undefined ? { contextSize } : {}),
          ...(gpuLayers !== undefined ? { gpuLayers } : {}),
        },
      }));
    } catch (e) {
      if (!(e instanceof EngineStopped)) throw e;
      // The entry never existed, so hostEnded could not count it.
      this.crashes.add(key);
      if (this.crashes.refusal(key)) throw this.crashLoop(name, contextSize, gpuLayers);
      throw new AppError(
        'unavailable',
        `The built-in engine stopped while loading ${name} (${describeStop(e.stop)}). Try ${gpuLayers ? 'fewer GPU layers, ' : ''}a shorter context or another quant of it.`,
        { details: e.details },
      );
    }
    this.started = true;
    this.gpu = loaded.gpu;
    if (threads.auto) this.autoThreads = loaded.threads;
    return {
      model,
      host,
      crashKey: key,
      contextSize: loaded.contextSize,
      gpuLayers: loaded.gpuLayers,
      sequences: loaded.sequences,
      threads: loaded.threads,
      memoryBytes: loaded.memoryBytes,
      loadedAt: new Date().toISOString(),
      queue: new Sequences(loaded.sequences),
      leases: 0,
    };
  }

  private crashLoop(name: string, contextSize?: number, gpuLayers?: number): AppError {
    const settings = [
      contextSize !== undefined ? `${contextSize} tokens of context` : undefined,
      gpuLayers ? `${gpuLayers} GPU layers` : undefined,
    ].filter(Boolean);
    return new AppError(
      'unavailable',
      `The built-in engine crashed 3 times within a minute with ${name}${settings.length ? ` (${settings.join(', ')})` : ''}, so HubDesk stopped restarting it. Load it with ${gpuLayers ? 'fewer GPU layers or ' : ''}a shorter context, or try another quant.`,
    );
  }

  /** Unloads it in the host (nothing to do when the host has gone: its memory went with it). */
  private async drop(e: Entry): Promise<void> {
    if (e.timer) clearTimeout(e.timer);
    e.queue.wakeAll();
    if (this.host.pid === undefined) return;
    await this.host.request({ op: 'unload', id: e.model.id }).catch(() => {});
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
      this.opts.log.info('local model unloaded', { id: i });
    }
    return this.status();
  }

  /** The idle timer: the model unloads after keep-alive minutes without use (0 keeps it). */
  private arm(e: Entry): void {
    if (e.timer) clearTimeout(e.timer);
    e.timer = undefined;
    e.unloadAt = undefined;
    const minuteMs = this.opts.minuteMs ?? 60_000;
    const ms = e.idleMs ?? this.opts.keepAliveMinutes() * minuteMs;
    if (e.leases > 0 || ms <= 0) return;
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

  /**
   * The model, loaded (with its plan) when it is not yet, and one of its sequences free for this use; past its
   * sequences, requests wait in order (`onWait` says how many are ahead). Held until `release`.
   */
  async acquire(model: LocalModel, opts: AcquireOptions = {}): Promise<Lease> {
    const { signal } = opts;
    let loadedHere = false;
    for (;;) {
      const wasLoaded = this.entries.has(model.id);
      // Stop does not wait for a load: it goes on (for whoever else asked), the reply ends now.
      const e = await (signal ? untilStopped(this.ensure(model, {}), signal) : this.ensure(model, {}));
      loadedHere ||= !wasLoaded;
      if (signal?.aborted) {
        if (!e.leases) this.arm(e);
        throw new AppError('aborted', 'Stopped.');
      }
      // The host ended between the load and now: load again.
      if (this.entries.get(model.id) !== e) continue;
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
      if (this.entries.get(model.id) !== e) continue;
      const free = e.queue.take(opts.key, true);
      if (free !== undefined) return this.lease(e, free, loadedHere);
    }
  }

  /** A use of `e`, holding `slot` (taken from its queue) until released. */
  private lease(e: Entry, slot: number | undefined, loaded: boolean): Lease {
    e.leases++;
    this.arm(e);
    return openLease(e, slot, loaded, {
      host: this.host,
      released: () => {
        if (this.entries.get(e.model.id) === e) this.arm(e);
      },
    });
  }

  /** A use of a loaded model that holds no sequence (embeddings, ranking, counting), loaded first when it is not. */
  private async noSlot<R extends HostResult>(model: LocalModel, req: (host: HostModel) => HostRequest): Promise<R> {
    const lease = await this.acquire(model, { noSlot: true });
    try {
      const e = this.entries.get(model.id);
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

function crashKey(id: string, s: { contextSize?: number; gpuLayers?: number }): string {
  return `${id}\n${s.contextSize ?? ''}\n${s.gpuLayers ?? ''}`;
}

/** Whether a load asks for other settings than these (an unset one takes whatever is there). */
function differs(cur: LoadOptions, want: LoadOptions): boolean {
  return (
    (want.contextSize !== undefined && want.contextSize !== cur.contextSize) ||
    (want.gpuLayers !== undefined && want.gpuLayers !== cur.gpuLayers) ||
    (want.sequences !== undefined && want.sequences !== cur.sequences) ||
    (want.threads !== undefined && want.threads !== cur.threads)
  );
}
