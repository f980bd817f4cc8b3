import { Ollama } from 'ollama';
import type { LocalModel, OllamaStatus, ProgressEvent } from '@shared/contract/ollama';
import type { StreamContext } from '../../router';
import { timeoutFetch } from '../http/timeout-fetch';
import type { Logger } from '../log';
import { ollamaError } from './errors';

export interface OllamaServiceOptions {
  host: () => string;
  apiKey: () => string | undefined;
  log: Logger;
  /** How long to wait for response headers. */
  timeoutMs?: number;
}

function isLoopback(host: string): boolean {
  const h = new URL(host).hostname;
  return h === 'localhost' || h === '::1' || h === '[::1]' || h.startsWith('127.');
}

/** The app's Ollama access: one `ollama` client per configured host, rebuilt when the host or key changes. */
export class OllamaService {
  private cached?: { key: string; client: Ollama };

  constructor(private readonly opts: OllamaServiceOptions) {}

  get host(): string {
    return this.opts.host();
  }

  client(): Ollama {
    const host = this.host;
    const apiKey = isLoopback(host) ? undefined : this.opts.apiKey();
    const key = `${host}\n${apiKey ?? ''}`;
    if (this.cached?.key !== key) {
      this.cached = {
        key,
        client: new Ollama({
          host,
          fetch: timeoutFetch(this.opts.timeoutMs ?? 10_000),
          headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : undefined,
        }),
      };
    }
    return this.cached.client;
  }

  /** Runs a non-streaming client call, turning its failure into an AppError. */
  private async run<T>(fn: (c: Ollama) => Promise<T>): Promise<T> {
    try {
      return await fn(this.client());
    } catch (e) {
      throw ollamaError(e, this.host);
    }
  }

  async status(): Promise<OllamaStatus> {
    const host = this.host;
    try {
      const { version } = await this.run((c) => c.version());
      return { host, reachable: true, version };
    } catch (e) {
      return { host, reachable: false, error: ollamaError(e, host).toJSON() };
    }
  }

  async list(): Promise<{ models: LocalModel[] }> {
    const res = await this.run((c) => c.list());
    return {
      models: res.models.map((m) => ({
        name: m.name,
        model: m.model,
        modified_at: String(m.modified_at),
        size: m.size,
        digest: m.digest,
        details: m.details,
      })),
    };
  }

  /**
   * Consumes one of the client's streams and forwards each part. The iterator is aborted on
   * every exit path: the client otherwise keeps the HTTP response open.
   */
  async forward<T extends object, E>(
    start: (c: Ollama) => Promise<AsyncIterable<T> & { abort(): void }>,
    ctx: StreamContext<E>,
    map: (part: T) => E,
  ): Promise<void> {
    const host = this.host;
    let it: (AsyncIterable<T> & { abort(): void }) | undefined;
    const onAbort = () => it?.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      it = await start(this.client());
      if (ctx.signal.aborted) it.abort();
      for await (const part of it) ctx.emit(map(part));
    } catch (e) {
      throw ollamaError(e, host);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      it?.abort();
    }
  }

  async pull(
    input: { model: string; insecure?: boolean },
    ctx: StreamContext<ProgressEvent>,
  ): Promise<{ status: 'success' }> {
    this.opts.log.info('pull started', { model: input.model, host: this.host });
    await this.forward((c) => c.pull({ model: input.model, insecure: input.insecure, stream: true }), ctx, progress);
    return { status: 'success' };
  }
}

/** Keeps only the fields Ollama's progress lines define (completed is absent while 0). */
export function progress(p: { status: string; digest?: string; total?: number; completed?: number }): ProgressEvent {
  const e: ProgressEvent = { status: p.status };
  if (p.digest) e.digest = p.digest;
  if (typeof p.total === 'number') e.total = p.total;
  if (typeof p.completed === 'number') e.completed = p.completed;
  return e;
}
