import { toAppError } from '@shared/errors';
import type { Logger } from '../../log';
import type { FromHost, HostError, HostPiece, HostRequest, HostResult, ToHost } from '../host/protocol';
import { llamaErrors } from './llama';
import { HostModels } from './models';

/** The host's end of the channel: `process.parentPort` in a utilityProcess, `process` in a Node child. */
export interface HostPort {
  send(msg: FromHost): void;
  onMessage(fn: (msg: ToHost) => void): void;
}

/**
 * How long pieces gather before they go to main. The first piece of a reply goes at once (time to first token);
 * later ones at most this often, so a 2,500 tokens/s model sends a few hundred messages a second, not a message per
 * token, and a 20 tokens/s one still sends each token as it comes.
 */
const BATCH_MS = 4;

/** Streams one generation's pieces in batches, consecutive pieces of one kind merged. */
class PieceBatch {
  private pending: HostPiece[] = [];
  private timer?: ReturnType<typeof setTimeout>;
  private sent = false;

  constructor(private readonly flushTo: (pieces: HostPiece[]) => void) {}

  add(p: HostPiece): void {
    const last = this.pending.at(-1);
    if (last && last[0] === p[0]) {
      last[1] += p[1];
      last[2] += p[2];
    } else this.pending.push([p[0], p[1], p[2]]);
    if (!this.sent) return this.flush();
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.length) return;
    this.sent = true;
    const out = this.pending;
    this.pending = [];
    this.flushTo(out);
  }
}

/** Details that are a flat record of strings, numbers and booleans: the only kind the channel carries. */
function plainDetails(d: unknown): boolean {
  return (
    typeof d === 'object' &&
    d !== null &&
    Object.values(d).every((v) => ['string', 'number', 'boolean'].includes(typeof v))
  );
}

function hostError(e: unknown, mark: number): HostError {
  const app = toAppError(e);
  const name = (e as Error | undefined)?.name;
  const log = llamaErrors.since(mark);
  // A plain Error (node-llama-cpp's own) reaches toAppError as 'internal' with its message.
  return {
    code: app.code,
    message: app.code === 'internal' && e instanceof Error ? e.message : app.message,
    ...(name ? { name } : {}),
    ...(log.length ? { log: log.slice(-20) } : {}),
    ...(plainDetails(app.details) ? { details: app.details as HostError['details'] } : {}),
  };
}

/** The engine host's loop: each request from main run on the models, answered with its id. */
export function serveHost(port: HostPort, opts: { gpu: false | 'auto'; test: boolean }): void {
  const log: Logger = {
    debug: (msg, data) => port.send({ t: 'log', level: 'debug', msg, ...(data ? { data } : {}) }),
    info: (msg, data) => port.send({ t: 'log', level: 'info', msg, ...(data ? { data } : {}) }),
    warn: (msg, data) => port.send({ t: 'log', level: 'warn', msg, ...(data ? { data } : {}) }),
    error: (msg, data) => port.send({ t: 'log', level: 'error', msg, ...(data ? { data } : {}) }),
  };
  const models = new HostModels({ log, gpu: opts.gpu });
  const running = new Map<number, AbortController>();

  /** A generation whose pieces go to main in batches, the last of them before its result. */
  const streamed = async <T>(id: number, gen: (emit: (p: HostPiece) => void) => Promise<T>): Promise<T> => {
    const batch = new PieceBatch((pieces) => port.send({ t: 'pieces', id, pieces }));
    try {
      return await gen((p) => batch.add(p));
    } finally {
      batch.flush();
    }
  };

  const run = async (id: number, req: HostRequest, signal: AbortSignal): Promise<HostResult> => {
    switch (req.op) {
      case 'load':
        return { op: 'load', loaded: await models.load(req.load) };
      case 'unload':
        await models.unload(req.id);
        return { op: 'unload' };
      case 'generate':
        return { op: 'generate', generated: await streamed(id, (emit) => models.generate(req.generate, emit, signal)) };
      case 'complete':
        return { op: 'complete', generated: await streamed(id, (emit) => models.complete(req.complete, emit, signal)) };
      case 'embed':
        return { op: 'embed', vectors: await models.embed(req.model, req.texts) };
      case 'count':
        return { op: 'count', tokens: await models.count(req) };
      case 'rank':
        return { op: 'rank', ...(await models.rank(req.model, req.query, req.documents)) };
      case 'tokenize':
        return { op: 'tokenize', tokens: models.tokenize(req.id, req.text) };
      case 'memory':
        return { op: 'memory', rssBytes: process.memoryUsage.rss() };
    }
  };

  port.onMessage((msg) => {
    if (msg.t === 'abort') return running.get(msg.id)?.abort();
    if (msg.t === 'test') {
      if (!opts.test) return;
      if (msg.act === 'abort') process.abort();
      if (msg.act === 'exit') process.exit(3);
      if (msg.act === 'garbage') return port.send({ t: 'nonsense', at: Date.now() } as unknown as FromHost);
      // A host stuck in native code: its event loop never turns again.
      for (;;);
    }
    const ac = new AbortController();
    running.set(msg.id, ac);
    const mark = llamaErrors.mark();
    run(msg.id, msg.req, ac.signal)
      .then(
        (result) => port.send({ t: 'done', id: msg.id, result }),
        (e: unknown) => port.send({ t: 'fail', id: msg.id, error: hostError(e, mark) }),
      )
      .finally(() => running.delete(msg.id));
  });
  port.send({ t: 'ready', pid: process.pid });
}
