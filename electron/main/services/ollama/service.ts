import { Ollama } from 'ollama';
import type {
  CreateInput,
  EmbedResult,
  LocalModel,
  ModelShow,
  OllamaStatus,
  ProgressEvent,
  RunningModel,
} from '@shared/contract/ollama';
import type { StreamContext } from '../stream-context';
import { timeoutFetch } from '../http/timeout-fetch';
import { untilAborted } from '../http/until-aborted';
import type { Logger } from '../log';
import { AppError } from '@shared/errors';
import { pushTarget } from '@shared/push-target';
import { checkPullDisk, type PullDiskCheck } from './disk-check';
import { isMissingEndpoint, missingEndpointError, ollamaError } from './errors';
import { skipInvalidJsonLines } from './ndjson';

interface OllamaServiceOptions {
  host: () => string;
  /** The key-bound fetch: it alone puts the Ollama API key on requests (net/bound-fetch.ts). */
  keyedFetch: typeof fetch;
  log: Logger;
  /** How long to wait for response headers. */
  timeoutMs?: number;
  /** The free-space check before an `hf.co/…` pull to a local Ollama (sizes from the Hub). */
  pullDisk?: PullDiskCheck;
}

function isLoopback(host: string): boolean {
  const h = new URL(host).hostname;
  return h === 'localhost' || h === '::1' || h === '[::1]' || h.startsWith('127.');
}

/** The app's Ollama access: one `ollama` client per configured host, rebuilt when the host changes. */
export class OllamaService {
  private cached?: { key: string; client: Ollama };

  constructor(private readonly opts: OllamaServiceOptions) {}

  get host(): string {
    return this.opts.host();
  }

  client(): Ollama {
    const host = this.host;
    if (this.cached?.key !== host) {
      // The local server never gets the API key, whatever is bound.
      const base = isLoopback(host) ? fetch : this.opts.keyedFetch;
      this.cached = {
        key: host,
        // A new host gets a new client; the old one's open streams end with their own callers.
        client: new Ollama({
          host,
          fetch: skipInvalidJsonLines(timeoutFetch(this.opts.timeoutMs ?? 10_000, base), this.opts.log),
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
      models: res.models.map((m) => {
        // Newer Ollama lists capabilities here too (the client's types do not have them yet).
        const caps = (m as { capabilities?: unknown }).capabilities;
        return {
          name: m.name,
          model: m.model,
          modified_at: String(m.modified_at),
          size: m.size,
          digest: m.digest,
          details: m.details,
          ...(Array.isArray(caps) ? { capabilities: caps.filter((c): c is string => typeof c === 'string') } : {}),
        };
      }),
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
      // Until aborted: a Stop waits for this loop, and the client's read can stay pending after its abort.
      for await (const part of untilAborted(it, ctx.signal)) ctx.emit(map(part));
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
    // A remote Ollama writes to its own disk, which this machine cannot see.
    if (this.opts.pullDisk && isLoopback(this.host))
      await checkPullDisk(input.model, {
        ...this.opts.pullDisk,
        pulled: async (m) => (await this.list()).models.some((x) => x.name.toLowerCase() === m.toLowerCase()),
      });
    return this.progressStream('pull', input.model, ctx, (c) =>
      c.pull({ model: input.model, insecure: input.insecure, stream: true }),
    );
  }

  /** Publishes a model; a name without the user's namespace is refused before anything leaves the machine. */
  async push(
    input: { model: string; insecure?: boolean },
    ctx: StreamContext<ProgressEvent>,
  ): Promise<{ status: 'success' }> {
    const checked = pushTarget(input.model);
    if ('refusal' in checked) throw new AppError('invalid_input', checked.refusal);
    return this.progressStream('push', input.model, ctx, (c) =>
      c.push({ model: input.model, insecure: input.insecure, stream: true }),
    );
  }

  /** Creates a model from an existing one with a system prompt, template and parameters. */
  async create(input: CreateInput, ctx: StreamContext<ProgressEvent>): Promise<{ status: 'success' }> {
    return this.progressStream('create', input.model, ctx, (c) =>
      c.create({
        model: input.model,
        from: input.from,
        system: input.system,
        template: input.template,
        parameters: input.parameters,
        quantize: input.quantize,
        stream: true,
      }),
    );
  }

  private async progressStream(
    what: 'pull' | 'push' | 'create',
    model: string,
    ctx: StreamContext<ProgressEvent>,
    start: (c: Ollama) => Promise<AsyncIterable<ProgressEvent> & { abort(): void }>,
  ): Promise<{ status: 'success' }> {
    const host = this.host;
    this.opts.log.info(`${what} started`, { model, host });
    try {
      await this.forward(start, ctx, progress);
    } catch (e) {
      let err = ollamaError(e, host);
      if (isMissingEndpoint(err)) {
        const version = await this.version().then(
          (v) => v.version,
          () => undefined,
        );
        err = missingEndpointError(what, host, version);
      }
      this.opts.log.info(`${what} ended`, { model, host, code: err.code, message: err.message });
      throw err;
    }
    this.opts.log.info(`${what} done`, { model, host });
    return { status: 'success' };
  }

  async version(): Promise<{ version: string }> {
    const { version } = await this.run((c) => c.version());
    return { version };
  }

  async ps(): Promise<{ models: RunningModel[] }> {
    const res = await this.run((c) => c.ps());
    return {
      models: res.models.map((m) => {
        const r: RunningModel = {
          name: m.name,
          model: m.model,
          size: m.size,
          size_vram: m.size_vram,
          digest: m.digest,
          details: m.details,
          expires_at: String(m.expires_at),
        };
        const ctxLen = (m as { context_length?: unknown }).context_length;
        if (typeof ctxLen === 'number') r.context_length = ctxLen;
        return r;
      }),
    };
  }

  async show(model: string): Promise<ModelShow> {
    const res = await this.run((c) => c.show({ model }));
    const info: ModelShow['model_info'] = {};
    for (const [k, v] of Object.entries((res.model_info ?? {}) as unknown as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') info[k] = v;
    }
    const out: ModelShow = {
      name: model,
      modelfile: res.modelfile ?? '',
      details: res.details ?? {},
      model_info: info,
      capabilities: res.capabilities ?? [],
    };
    if (res.license) out.license = res.license;
    if (res.parameters) out.parameters = res.parameters;
    if (res.template) out.template = res.template;
    if (res.system) out.system = res.system;
    if (res.modified_at) out.modified_at = String(res.modified_at);
    return out;
  }

  async copy(source: string, destination: string): Promise<{ ok: true }> {
    await this.run((c) => c.copy({ source, destination }));
    this.opts.log.info('model copied', { source, destination, host: this.host });
    return { ok: true };
  }

  async delete(model: string): Promise<{ ok: true }> {
    await this.run((c) => c.delete({ model }));
    this.opts.log.info('model deleted', { model, host: this.host });
    return { ok: true };
  }

  async embed(input: {
    model: string;
    input: string | string[];
    dimensions?: number;
    truncate?: boolean;
  }): Promise<EmbedResult> {
    const res = await this.run((c) =>
      c.embed({ model: input.model, input: input.input, dimensions: input.dimensions, truncate: input.truncate }),
    );
    const out: EmbedResult = { model: res.model, embeddings: res.embeddings };
    if (typeof res.total_duration === 'number') out.total_duration = res.total_duration;
    if (typeof res.prompt_eval_count === 'number') out.prompt_eval_count = res.prompt_eval_count;
    return out;
  }
}

/** Keeps only the fields Ollama's progress lines define (completed is absent while 0). */
function progress(p: { status: string; digest?: string; total?: number; completed?: number }): ProgressEvent {
  const e: ProgressEvent = { status: p.status };
  if (p.digest) e.digest = p.digest;
  if (typeof p.total === 'number') e.total = p.total;
  if (typeof p.completed === 'number') e.completed = p.completed;
  return e;
}
