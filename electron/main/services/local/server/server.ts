import { createServer, type Server } from 'node:http';
import type { LocalServerStatus } from '@shared/contract/local-server';
import { AppError } from '@shared/errors';
import { CONNECTION_LIMITS, ConnectionGuard, type ConnectionLimits } from '../../http/connection-guard';
import type { LocalEngine } from '../../engines/local/engine';
import type { Logger } from '../../log';
import type { LocalConfigStore } from '../config';
import type { LocalLibrary } from '../disk/library';
import type { EngineRuntime } from '../host/engine-runtime';
import { gate } from './cors';
import { authorized } from './http';
import { lanAddresses } from './lan';
import { RequestLog } from './request-log';
import { route } from './routes';

export interface LocalServerOptions {
  config: LocalConfigStore;
  library: LocalLibrary;
  runtime: EngineRuntime;
  log: Logger;
  /** The built-in chat engine: the server answers with the same conversion and template as a chat in the app. */
  engine: Pick<LocalEngine, 'turn' | 'complete' | 'countTokens'>;
  /** The app (desktop, web mode) starts it at launch when the user left it on; the CLI and tests do not. */
  serveAtLaunch?: boolean;
  /** Its cap on open connections and its header timeout (tests set small ones). */
  connections?: Partial<ConnectionLimits>;
}

const MIN_KEY = 16;

/**
 * The OpenAI-compatible server over the built-in engine: off by default, 127.0.0.1 only unless the person turns on
 * the local network, a key on every request, no browser page unless its origin is allowlisted. Starting it loads
 * nothing: llama.cpp starts with the first chat or embedding request.
 */
export class LocalServer {
  /** Every answered request, for the card (in memory only). */
  readonly log = new RequestLog();
  private http?: Server;
  private port?: number;
  /** Bound on 0.0.0.0 (the local network) rather than 127.0.0.1. */
  private lan = false;
  private key?: string;
  private error?: AppError;
  private guard?: ConnectionGuard;
  /** apply() calls run one after another, so a quick off/on never leaves two listeners. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly opts: LocalServerOptions) {
    // At launch: on only when the user left it on (nothing is bound by default), and only in the app.
    if (opts.serveAtLaunch && opts.config.get().server.enabled) void this.apply();
  }

  status(): LocalServerStatus {
    const { server } = this.opts.config.get();
    const key = this.opts.config.key();
    const running = !!this.http;
    const port = running ? this.port! : server.port;
    return {
      enabled: server.enabled,
      running,
      port,
      ...(running ? { url: `http://127.0.0.1:${port}/v1` } : {}),
      lan: server.lan,
      ...(running && this.lan ? { lanUrls: lanAddresses().map((a) => `http://${a}:${port}/v1`) } : {}),
      corsOrigins: server.corsOrigins,
      keepBodies: server.keepBodies,
      keySet: !!key.value,
      ...(key.value ? { last4: key.value.slice(-4) } : {}),
      keySource: key.source,
      ...(key.value ? { keyKept: !!key.kept } : {}),
      ...(this.error ? { error: this.error.toJSON() } : {}),
    };
  }

  /** Starts or stops it to match the config (at launch, and after each change). */
  apply(): Promise<LocalServerStatus> {
    const next = this.queue.then(() => this.reconcile());
    this.queue = next.catch(() => {});
    return next;
  }

  private async reconcile(): Promise<LocalServerStatus> {
    const { server } = this.opts.config.get();
    const key = this.opts.config.key().value;
    this.error = undefined;
    if (!server.enabled || this.disposed) {
      await this.stop();
      return this.status();
    }
    if (!key || key.length < MIN_KEY) {
      await this.stop();
      this.error = new AppError(
        'invalid_input',
        this.opts.config.keyLostAtRestart()
          ? 'Its key was set on the page without a keychain to keep it, so it ended when HubDesk restarted. Generate or type a key to start it again; to keep one across restarts, start HubDesk with HUBDESK_LOCAL_SERVER_KEY set.'
          : `It needs a key first: generate one, or type one of ${MIN_KEY}+ characters.`,
      );
      return this.status();
    }
    // The key is read per request from here: a new key takes effect without a restart.
    this.key = key;
    if (this.http && this.port === server.port && this.lan === server.lan) return this.status();
    await this.stop();
    try {
      await this.listen(server.port, server.lan);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.error =
        code === 'EADDRINUSE'
          ? new AppError('conflict', `Port ${server.port} is in use: choose another.`)
          : code === 'EACCES'
            ? new AppError('forbidden', `Port ${server.port} cannot be used here: choose another.`)
            : new AppError('internal', `The local server could not start: ${(e as Error).message}`);
    }
    return this.status();
  }

  private listen(port: number, lan: boolean): Promise<void> {
    const limits = { ...CONNECTION_LIMITS, ...this.opts.connections };
    const http = createServer((req, res) => {
      const key = this.key;
      if (!key) return void res.destroy();
      // A client with the key is kept when half-open connections fill the cap; the others go first.
      if (authorized(req, key)) guard.admit(req.socket);
      // Read per request: the allowlist and the log's switch take effect without a restart.
      const { corsOrigins, keepBodies } = this.opts.config.get().server;
      const record = this.log.begin(req, res, { keepBodies, key });
      void route(
        {
          port,
          key,
          models: async () => (await this.opts.library.list()).models.filter((m) => !m.problem),
          loaded: () => this.opts.runtime.status().loaded,
          engine: this.opts.engine,
          embed: (m, texts) => this.opts.runtime.embed(m, texts),
          rank: (m, query, documents) => this.opts.runtime.rank(m, query, documents),
          log: this.opts.log,
          gate: (rq, rs) => {
            const answered = gate({ port, lan, origins: corsOrigins }, rq, rs);
            if (answered?.answered === 'refused') record.error = answered.error;
            return !!answered;
          },
          record,
        },
        req,
        res,
      );
    });
    const guard = new ConnectionGuard(http, limits);
    return new Promise((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, lan ? '0.0.0.0' : '127.0.0.1', () => {
        http.off('error', reject);
        http.on('error', (e) => this.opts.log.warn('local server error', { reason: String(e) }));
        this.http = http;
        this.guard = guard;
        this.port = port;
        this.lan = lan;
        this.opts.log.info('local server listening', { url: `http://127.0.0.1:${port}/v1`, lan });
        resolve();
      });
    });
  }

  private async stop(): Promise<void> {
    const http = this.http;
    if (!http) return;
    this.http = undefined;
    this.port = undefined;
    // Open streams end with it: their generations abort as their sockets close.
    for (const s of [...(this.guard?.sockets() ?? [])]) s.destroy();
    this.guard = undefined;
    await new Promise<void>((resolve) => http.close(() => resolve()));
    this.opts.log.info('local server stopped');
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.apply();
  }
}
