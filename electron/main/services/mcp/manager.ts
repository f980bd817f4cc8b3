import type { McpConfigView, McpServersView, McpServerStatus, McpToolResult } from '@shared/contract/mcp';
import { AppError } from '@shared/errors';
import { redact, type Logger } from '../log';
import type { Cipher } from '../secrets';
import { fingerprint } from './config';
import { McpConfigStore } from './config-store';
import { McpConnection, type ConnectionOptions } from './connection';
import { McpSecrets } from './secrets';

export interface McpOptions extends Partial<Omit<ConnectionOptions, 'version'>> {
  file: string;
  secretsFile: string;
  cipher?: Cipher;
  version: string;
  log: Logger;
  /** Reload mcp.json when it changes on disk (off in unit tests that only parse). */
  watch?: boolean;
}

const defaults: Omit<ConnectionOptions, 'version'> = {
  connectTimeoutMs: 30_000,
  callTimeoutMs: 120_000,
  restartBaseMs: 1_000,
  restartMaxMs: 60_000,
  maxRestarts: 5,
};

/** The MCP servers of mcp.json: their config, their connections, and the calls the app makes to their tools. */
export class McpService {
  readonly secrets: McpSecrets;
  readonly config: McpConfigStore;
  private readonly connections = new Map<string, McpConnection>();
  private readonly opts: ConnectionOptions;
  private disposed = false;

  constructor(private readonly o: McpOptions) {
    this.opts = {
      version: o.version,
      connectTimeoutMs: o.connectTimeoutMs ?? defaults.connectTimeoutMs,
      callTimeoutMs: o.callTimeoutMs ?? defaults.callTimeoutMs,
      restartBaseMs: o.restartBaseMs ?? defaults.restartBaseMs,
      restartMaxMs: o.restartMaxMs ?? defaults.restartMaxMs,
      maxRestarts: o.maxRestarts ?? defaults.maxRestarts,
    };
    this.secrets = new McpSecrets(o.cipher ? { file: o.secretsFile, cipher: o.cipher } : undefined);
    this.config = new McpConfigStore(o.file, this.secrets, o.log);
    this.config.onChange(() => void this.sync());
    if (o.watch !== false) this.config.watch();
    void this.sync();
  }

  getConfig(): McpConfigView {
    return this.config.view();
  }

  saveConfig(text: string): McpConfigView {
    return this.config.save(text);
  }

  importConfig(text: string): McpConfigView {
    return this.config.import(text);
  }

  servers(connect = false): McpServersView {
    if (connect) for (const c of this.connections.values()) if (c.status().state === 'stopped') void c.start();
    // A server held back for a value to type again is listed with why, not left out as if it were gone.
    const blocked = this.config.blocked().map(({ server, why }): McpServerStatus => ({
      name: server.name,
      transport: server.transport,
      state: server.disabled ? 'disabled' : 'error',
      message: why,
      tools: [],
    }));
    return {
      revision: this.config.view().revision,
      servers: [...[...this.connections.values()].map((c) => this.masked(c.status())), ...blocked],
    };
  }

  async start(name: string): Promise<McpServerStatus> {
    return this.masked(await this.get(name).start());
  }

  async restart(name: string): Promise<McpServerStatus> {
    return this.masked(await this.get(name).restart());
  }

  async stop(name: string): Promise<McpServerStatus> {
    return this.masked(await this.get(name).stop());
  }

  /** The server's stderr, with every secret value masked. */
  log(name: string): { text: string; truncated: boolean } {
    const { text, truncated } = this.get(name).stderr.read();
    return { text: redact(text, this.secrets.values()), truncated };
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<McpToolResult> {
    try {
      return await this.get(server).callTool(tool, args, opts);
    } catch (e) {
      // Messages quote the server's stderr, which may echo a secret of its env.
      if (e instanceof AppError) throw new AppError(e.code, redact(e.message, this.secrets.values()));
      throw e;
    }
  }

  private masked(s: McpServerStatus): McpServerStatus {
    return s.message ? { ...s, message: redact(s.message, this.secrets.values()) } : s;
  }

  /** Stops every server and the file watcher: called on quit by the Electron and web entries. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.config.unwatch();
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
  }

  private get(name: string): McpConnection {
    const c = this.connections.get(name);
    if (c) return c;
    const why = this.config.blocked().find((b) => b.server.name === name)?.why;
    if (why) throw new AppError('conflict', `"${name}" cannot start until mcp.json is fixed: ${why}`);
    throw new AppError('not_found', `No MCP server named "${name}" in mcp.json.`);
  }

  /** Brings the connections in line with the config: new ones added, removed ones stopped, changed ones replaced. */
  private async sync(): Promise<void> {
    if (this.disposed) return;
    const wanted = new Map(this.config.servers().map((s) => [s.name, s]));
    const work: Promise<unknown>[] = [];
    for (const [name, conn] of this.connections) {
      const next = wanted.get(name);
      if (next && fingerprint(next) === fingerprint(conn.config)) continue;
      this.connections.delete(name);
      const wasRunning = conn.running;
      work.push(
        conn.stop().then(() => {
          if (next && wasRunning && this.connections.get(name)) void this.connections.get(name)!.start();
        }),
      );
    }
    for (const [name, cfg] of wanted)
      if (!this.connections.has(name)) this.connections.set(name, new McpConnection(cfg, this.opts, this.o.log));
    await Promise.all(work);
  }
}
