import { AppError } from '@shared/errors';
import type { Logger } from '../../log';
import { exitReason, tellingLine } from './exit';
import {
  fromHostSchema,
  type HostError,
  type HostPiece,
  type HostProcess,
  type HostRequest,
  type HostResult,
  type SpawnHost,
  type ToHost,
} from './protocol';

/** How long an aborted request may take to settle before the host is taken as stuck and killed. */
const ABORT_GRACE_MS = 3_000;
/** llama.cpp's recent lines kept for an ending's details. */
const TAIL = 40;
/**
 * Stack traces printed as a process aborts (Node's native and JavaScript frames, the gdb backtrace llama.cpp's
 * abort handler may print): not what went wrong, so not kept as the reason's line.
 */
const STACK_LINE =
  /^(-{3,}.*-{3,}|\d+: |#\d+\s|\[New LWP|\[Thread debugging|\[Inferior|ptrace|warning: process \d+|Using host libthread_db|0x[0-9a-f]+ in )/i;

/** Why the engine host ended, for a reply's, a load's or a request's error. */
export interface HostStop {
  /** The cause named from its exit code or signal, or what HubDesk stopped it for. */
  reason: string;
  /** llama.cpp's most telling line before it ended. */
  line?: string;
}

/** The error every request open when the host ended rejects with; its details say why. */
export class EngineStopped extends AppError {
  constructor(readonly stop: HostStop) {
    super('unavailable', `The built-in engine stopped (${describeStop(stop)}).`, { details: { engine: stop } });
  }
}

/** "llama.cpp aborted: GGML_ASSERT(…) failed": the reason with its telling line. */
export function describeStop(stop: HostStop): string {
  return stop.line ? `${stop.reason}: ${stop.line}` : stop.reason;
}

/** A request's failure inside the host (a load error, a generation error), as an Error main can read. */
export class HostFailure extends AppError {
  constructor(readonly error: HostError) {
    super(error.code, error.message, error.details ? { details: error.details } : {});
    if (error.name) this.name = error.name;
  }
}

interface Pending {
  resolve(r: HostResult): void;
  reject(e: unknown): void;
  onPieces?: (pieces: HostPiece[]) => void;
  watchdog?: ReturnType<typeof setTimeout>;
}

interface Running {
  proc: HostProcess;
  /** Set when HubDesk itself ends it: a stuck host, garbage on the channel, shutdown. */
  stopping?: HostStop;
}

export interface SupervisorOptions {
  spawn: SpawnHost;
  log: Logger;
  /** Variables for the host (the GPU choice; the tests' switch for test-only messages). */
  env?: Record<string, string>;
}

/**
 * Main's side of the engine host: starts it on first use (never at launch), carries requests and their streamed
 * pieces, and turns its unexpected end into an error every open request rejects with, named from the exit code and
 * llama.cpp's last lines. The next request starts a new host.
 */
export class HostSupervisor {
  private cur?: Running;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly tail: string[] = [];
  private readonly exitListeners = new Set<(stop: HostStop | undefined) => void>();
  private disposed = false;

  constructor(private readonly opts: SupervisorOptions) {}

  get pid(): number | undefined {
    return this.cur?.proc.pid;
  }

  /** Told each time a host ends: with why when it was not asked to (a crash), undefined on a requested stop. */
  onExit(fn: (stop: HostStop | undefined) => void): () => void {
    this.exitListeners.add(fn);
    return () => this.exitListeners.delete(fn);
  }

  private spawn(): Running {
    if (this.disposed) throw new AppError('unavailable', 'HubDesk is shutting down.');
    const proc = this.opts.spawn(this.opts.env ?? {});
    const run: Running = { proc };
    this.tail.length = 0;
    proc.onStderr((line) => this.remember(line));
    proc.onMessage((raw) => this.receive(run, raw));
    proc.onExit((code, signal) => this.exited(run, code, signal));
    this.cur = run;
    this.opts.log.info('engine host started', { pid: proc.pid });
    return run;
  }

  private remember(line: string): void {
    const text = line.trim();
    if (!text || STACK_LINE.test(text)) return;
    this.tail.push(text.slice(0, 2_000));
    if (this.tail.length > TAIL) this.tail.shift();
  }

  private receive(run: Running, raw: unknown): void {
    if (run !== this.cur) return;
    const parsed = fromHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.opts.log.error('engine host sent an unreadable message', { issue: parsed.error.issues[0]?.message });
      return this.stop(run, { reason: 'it sent a message HubDesk could not read, so it was restarted' });
    }
    const msg = parsed.data;
    if (msg.t === 'ready') return;
    if (msg.t === 'log') {
      if (msg.level === 'warn' || msg.level === 'error') this.remember(String(msg.data?.message ?? msg.msg));
      return this.opts.log[msg.level](msg.msg, { ...msg.data, engine: true });
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.t === 'pieces') return p.onPieces?.(msg.pieces);
    this.pending.delete(msg.id);
    if (p.watchdog) clearTimeout(p.watchdog);
    if (msg.t === 'done') p.resolve(msg.result);
    else p.reject(new HostFailure(msg.error));
  }

  private exited(run: Running, code: number | null, signal: string | null): void {
    if (run !== this.cur) return;
    this.cur = undefined;
    const stop = run.stopping ?? { reason: exitReason(code, signal), line: tellingLine(this.tail) };
    const asked = this.disposed && !run.stopping;
    if (!asked) this.opts.log.error('engine host ended', { code, signal, ...stop });
    const open = [...this.pending.values()];
    this.pending.clear();
    for (const p of open) {
      if (p.watchdog) clearTimeout(p.watchdog);
      p.reject(new EngineStopped(stop));
    }
    for (const fn of this.exitListeners) fn(asked ? undefined : stop);
  }

  /** Ends the host on HubDesk's own decision; its open requests reject with `why`. */
  private stop(run: Running, why: HostStop): void {
    run.stopping ??= why;
    run.proc.kill();
  }

  /**
   * One request to the host (started if it is not running). `onPieces` receives a generation's streamed pieces.
   * Aborting sends the abort on; a host that has not settled it within 3 s is killed (its open requests fail).
   */
  request<R extends HostResult>(
    req: HostRequest,
    opts: { signal?: AbortSignal; onPieces?: (pieces: HostPiece[]) => void } = {},
  ): Promise<R> {
    let run: Running;
    try {
      run = this.cur ?? this.spawn();
    } catch (e) {
      return Promise.reject(e as Error);
    }
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (r: HostResult) => void, reject, onPieces: opts.onPieces };
      this.pending.set(id, p);
      const onAbort = () => {
        if (!this.pending.has(id)) return;
        this.post(run, { t: 'abort', id });
        p.watchdog = setTimeout(() => {
          if (this.pending.has(id) && this.cur === run)
            this.stop(run, { reason: 'it did not stop within 3 s of being asked to, so it was restarted' });
        }, ABORT_GRACE_MS);
      };
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.post(run, { t: 'req', id, req });
    });
  }

  private post(run: Running, msg: ToHost): void {
    try {
      run.proc.send(msg);
    } catch (e) {
      // A message the channel cannot carry (too large for IPC, a closed pipe): the host is restarted and said.
      this.opts.log.error('engine host channel failed', { reason: String(e) });
      this.stop(run, { reason: `its channel failed (${(e as Error).message})` });
    }
  }

  /** Tests only: makes a host started with HUBDESK_ENGINE_TEST=1 crash, hang or send garbage. */
  test(act: 'abort' | 'hang' | 'garbage' | 'exit'): void {
    if (this.cur) this.post(this.cur, { t: 'test', act });
  }

  /** Kills the host (its models go with it); the next request starts another. */
  kill(): void {
    if (this.cur) this.stop(this.cur, { reason: 'it was stopped by HubDesk' });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const run = this.cur;
    if (!run) return;
    const ended = new Promise<void>((r) => run.proc.onExit(() => r()));
    run.proc.kill();
    await ended;
  }
}
