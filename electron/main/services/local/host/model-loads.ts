import type { LocalModel } from '@shared/contract/local-models';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';
import type { HostLoaded, HostModel } from './protocol';
import { CrashLog } from './crash-log';
import { Sequences } from './sequences';
import { describeStop, EngineStopped, type HostStop, type HostSupervisor } from './supervisor';
import { defaultThreads } from './threads';

/** What loading, keeping and unloading models takes of the runtime's options. */
export interface LoadsOptions {
  log: Logger;
  keepAliveMinutes: () => number;
  /** Every part's path of a model (split GGUFs load from the first; llama.cpp finds the rest). */
  parts: (model: LocalModel) => string[];
  /** CPU threads per context: this option (tests, the bench), else local.json's `threads`, else the default rule. */
  threads?: number;
  configThreads?: () => number;
  /** Tests: how long a keep-alive minute lasts, so an idle unload needs no real minute. */
  minuteMs?: number;
}

export interface LoadOptions {
  contextSize?: number;
  gpuLayers?: number;
  /** Parallel sequences; the plan's (what memory allows) by default. */
  sequences?: number;
  /** CPU threads for this load (the Load dialog); the engine's setting by default. */
  threads?: number;
}

export interface Entry {
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

/** Without a load plan that says more, one sequence. At most this many in any case (LM Studio's default is 4). */
const MAX_SEQUENCES = 16;

/**
 * The models loaded in the engine host: each load with its settings (a load asked twice is shared, other settings
 * reload), the idle timers that unload them, and the crash-loop stop.
 */
export class ModelLoads {
  readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, { want: LoadOptions; done: Promise<Entry> }>();
  private readonly crashes = new CrashLog();
  gpu?: string;
  started = false;
  /** The default rule's count as the host applied it (it knows llama.cpp's math cores). */
  private autoThreads?: number;

  constructor(
    private readonly opts: LoadsOptions,
    private readonly host: HostSupervisor,
  ) {}

  /** The host ended: every model it held is gone (returned), its crash counted. Waiting requests are woken. */
  lost(stop: HostStop | undefined): Entry[] {
    const held = [...this.entries.values()];
    this.entries.clear();
    // The crash counts against the models at work when it came (a load counts its own, in open()); an idle crash
    // against every model loaded.
    const busy = held.filter((e) => e.leases > 0);
    const blamed = busy.length ? busy : this.loading.size ? [] : held;
    for (const e of held) {
      if (e.timer) clearTimeout(e.timer);
      if (stop && blamed.includes(e)) this.crashes.add(e.crashKey);
      e.queue.wakeAll();
    }
    return held;
  }

  /** The threads a load uses: the user's (or the tests') count, else the default rule's (the host's, once known). */
  threads(): { value: number; auto: boolean } {
    const set = this.opts.threads ?? this.opts.configThreads?.() ?? 0;
    return set > 0 ? { value: set, auto: false } : { value: this.autoThreads ?? defaultThreads(), auto: true };
  }

  /** The model loaded with these settings (reloaded with other ones); a load under way is shared, or waited for. */
  async ensure(model: LocalModel, asked: LoadOptions): Promise<Entry> {
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
      // The entry never existed, so lost() could not count it.
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
  async unload(id?: string): Promise<void> {
    const ids = id ? [id] : [...new Set([...this.entries.keys(), ...this.loading.keys()])];
    for (const i of ids) {
      await this.loading.get(i)?.done.catch(() => {});
      const e = this.entries.get(i);
      if (!e) continue;
      this.entries.delete(i);
      await this.drop(e);
      this.opts.log.info('local model unloaded', { id: i });
    }
  }

  /** The idle timer: the model unloads after keep-alive minutes without use (0 keeps it). */
  arm(e: Entry): void {
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
