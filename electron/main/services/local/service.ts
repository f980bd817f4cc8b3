import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { homedir } from 'node:os';
import type { Input } from '@shared/contract';
import type { Recommendation } from '@shared/contract/local-models';
import type { Download } from '@shared/contract/local-downloads';
import type { EngineStatus } from '@shared/contract/local-engine';
import type { AppSetups, LocalServerStatus, RequestLogEntry } from '@shared/contract/local-server';
import { AppError } from '@shared/errors';
import type { FitHardware } from '@shared/fit';
import type { Logger } from '../log';
import type { Cipher } from '../secrets';
import type { StreamContext } from '../stream-context';
import { LocalConfigStore } from './config';
import { LocalLibrary } from './disk/library';
import { Downloads } from './download/downloads';
import { recommend } from './recommend';
import { EngineRuntime, type RuntimeOptions } from './host/engine-runtime';
import type { LoadOptions } from './host/model-loads';
import { nodeHost } from './host/spawn-node';
import type { SpawnHost } from './host/protocol';
import type { ConnectionLimits } from '../http/connection-guard';
import { LocalServer } from './server/server';
import { LocalEngine } from '../engines/local/engine';
import { appSetups } from '../snippets/app-setups';

export interface LocalOptions {
  dataDir: string;
  env: Record<string, string | undefined>;
  log: Logger;
  cipher?: Cipher;
  /** Tests: a home folder holding HF cache and LM Studio fixtures. */
  home?: string;
  hubEndpoint: () => string;
  /** The key-bound fetch for the Hub (the HF token goes to the Hub endpoint only). */
  hubFetch: typeof fetch;
  /** Live Hub access allowed (Settings → Hub access): downloads refuse without it. */
  hubEnabled?: () => boolean;
  hardware: () => Promise<FitHardware | undefined>;
  /** Tests and the bench: CPU only, one thread; the host's test-only messages. */
  runtime?: Pick<RuntimeOptions, 'threads' | 'gpu' | 'testHost' | 'minuteMs'>;
  /** How the engine host process starts: Electron's utilityProcess in the desktop app, a Node child elsewhere. */
  spawnEngine?: SpawnHost;
  /** The app's entries (desktop, web mode): start the local server if the user left it on. Not the CLI. */
  serve?: boolean;
  /** The local server's cap on open connections and its header timeout (tests set small ones). */
  serverConnections?: Partial<ConnectionLimits>;
  /** Tests: a full disk. */
  freeBytes?: (dir: string) => Promise<number>;
  /** The desktop app: writes to the OS clipboard, so "Copy key" never sends the key to the page. */
  clipboard?: (text: string) => void;
}

/**
 * The engine host's entry script when the app's entry does not say (it does: the desktop app and the web mode pass
 * `spawnEngine`): HUBDESK_ENGINE_HOST (the tests point it at a build of the entry, since vitest runs main from its
 * sources), else `engine-host.js` beside this bundle.
 */
function engineHostEntry(env: Record<string, string | undefined>): string {
  return env.HUBDESK_ENGINE_HOST ?? process.env.HUBDESK_ENGINE_HOST ?? join(__dirname, 'engine-host.js');
}

/** The built-in llama.cpp engine's calls: models on disk, downloads, load and unload, embeddings, the local server. */
export class LocalService {
  readonly config: LocalConfigStore;
  readonly library: LocalLibrary;
  readonly downloads: Downloads;
  readonly runtime: EngineRuntime;
  readonly server: LocalServer;

  constructor(private readonly opts: LocalOptions) {
    const { dataDir, env, log } = opts;
    this.config = new LocalConfigStore({
      file: join(dataDir, 'local.json'),
      log,
      cipher: opts.cipher,
      envKey: env.HUBDESK_LOCAL_SERVER_KEY?.trim() || undefined,
    });
    const downloadsDir = join(dataDir, 'models');
    this.library = new LocalLibrary({
      downloadsDir,
      config: this.config,
      env,
      home: opts.home ?? homedir(),
      log,
      hardware: opts.hardware,
    });
    this.downloads = new Downloads({
      dir: downloadsDir,
      endpoint: opts.hubEndpoint,
      fetch: opts.hubFetch,
      enabled: opts.hubEnabled,
      log,
      freeBytes: opts.freeBytes,
      onDone: () => void this.library.list(true).catch(() => {}),
    });
    this.runtime = new EngineRuntime({
      log,
      spawn: opts.spawnEngine ?? nodeHost(engineHostEntry(env)),
      keepAliveMinutes: () => this.config.get().keepAliveMinutes,
      parts: (m) => this.library.partsOf(m),
      configThreads: () => this.config.get().threads,
      ...opts.runtime,
    });
    this.server = new LocalServer({
      config: this.config,
      library: this.library,
      runtime: this.runtime,
      log,
      engine: new LocalEngine(this),
      serveAtLaunch: opts.serve,
      connections: opts.serverConnections,
    });
  }

  /** A model by id that can be loaded: a clear error when it is gone or unusable. */
  async model(id: string) {
    const m = await this.library.find(id);
    if (!m) throw new AppError('not_found', `No local model "${id}": it was moved, deleted or its folder forgotten.`);
    if (m.problem) throw new AppError('invalid_input', `${m.name} cannot be loaded: ${m.problem}`);
    return m;
  }

  async recommendation(): Promise<{ recommendation?: Recommendation }> {
    const [hw, { models }] = await Promise.all([this.opts.hardware(), this.library.list()]);
    return { recommendation: recommend(hw, models) };
  }

  async load(id: string, opts: LoadOptions): Promise<EngineStatus> {
    return this.runtime.load(await this.model(id), opts);
  }

  setThreads(threads: number): EngineStatus {
    this.config.update({ threads });
    return this.runtime.status();
  }

  setKeepAlive(minutes: number): EngineStatus {
    this.config.update({ keepAliveMinutes: minutes });
    this.runtime.keepAliveChanged();
    return this.runtime.status();
  }

  async embed(id: string, input: string | string[]) {
    const m = await this.model(id);
    return { model: m.id, embeddings: await this.runtime.embed(m, typeof input === 'string' ? [input] : input) };
  }

  async setServer({ key, ...patch }: Input<'local.server.set'>): Promise<LocalServerStatus> {
    if (key !== undefined) this.config.setKey(key);
    const cur = this.config.get().server;
    // The contract took each origin in its normalized form; a repeat is dropped, the order kept.
    const corsOrigins = patch.corsOrigins ? [...new Set(patch.corsOrigins)] : cur.corsOrigins;
    this.config.update({ server: { ...cur, ...patch, corsOrigins } });
    return this.server.apply();
  }

  /** A random key (32 characters of base64url after the prefix) in place of the stored one, applied at once. */
  async generateKey(): Promise<LocalServerStatus> {
    if (this.config.key().source === 'env')
      throw new AppError(
        'conflict',
        'HUBDESK_LOCAL_SERVER_KEY sets the key: change that variable (and restart HubDesk) to use another.',
      );
    this.config.setKey(`hd-local-${randomBytes(24).toString('base64url')}`);
    return this.server.apply();
  }

  /** "Copy key": on the OS clipboard from main where there is one (the desktop app), else answered once for the page. */
  copyKey(): { copied: boolean; key?: string } {
    const key = this.config.key().value;
    if (!key) throw new AppError('not_found', 'The local server has no key yet: generate or type one first.');
    if (this.opts.clipboard) {
      this.opts.clipboard(key);
      return { copied: true };
    }
    return { copied: false, key };
  }

  /** "Use from another app": each app's setup for a chat model, filled with the server's address and its context. */
  async setups(id: string): Promise<AppSetups> {
    const m = await this.model(id);
    if (m.embedding || m.reranker)
      throw new AppError(
        'invalid_input',
        m.reranker
          ? `${m.title || m.name} is a reranker: apps chat with a chat model. Its scores are at POST /v1/rerank.`
          : `${m.title || m.name} is an embedding model: apps chat with a chat model. Its vectors are at POST /v1/embeddings.`,
      );
    const loaded = this.runtime.status().loaded.find((l) => l.id === m.id);
    return appSetups(m, loaded, this.server.status());
  }

  /** The server's request log, as it changes (a few snapshots a second at most), until the caller stops listening. */
  async watchRequests(ctx: StreamContext<{ entries: RequestLogEntry[] }>): Promise<{ ended: true }> {
    const log = this.server.log;
    ctx.emit({ entries: log.list() });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = log.onChange(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        ctx.emit({ entries: log.list() });
      }, 200);
    });
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    off();
    if (timer) clearTimeout(timer);
    return { ended: true };
  }

  /** Download list snapshots as it changes, a few a second at most, until the caller stops listening. */
  async watchDownloads(ctx: StreamContext<{ downloads: Download[] }>): Promise<{ ended: true }> {
    ctx.emit({ downloads: this.downloads.list() });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = this.downloads.onChange(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        ctx.emit({ downloads: this.downloads.list() });
      }, 200);
    });
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    off();
    if (timer) clearTimeout(timer);
    return { ended: true };
  }

  async dispose(): Promise<void> {
    await Promise.allSettled([this.server.dispose(), this.downloads.dispose(), this.runtime.dispose()]);
  }
}
