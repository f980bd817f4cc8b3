import { companyNetworkProblem } from '../net/network-words';
import type { McpServerStatus, McpTool, McpToolResult } from '@shared/contract/mcp';
import { AppError } from '@shared/errors';
import type { Logger } from '../log';
import type { McpServerConfig } from './config';
import { boundContent, RingLog } from './results';
import { sdk, type Sdk, type SdkClient } from './sdk';

export interface ConnectionOptions {
  version: string;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  restartBaseMs: number;
  restartMaxMs: number;
  /** Crashes in a row after which the server stays in error until restarted by hand. */
  maxRestarts: number;
  /** The network (net/network.ts) remote servers are reached through: proxy and trust as for every other call. */
  fetch?: typeof fetch;
}

type Transport = Parameters<SdkClient['connect']>[0];

/** Most a stdio server may send in one message; larger ones close the connection with a clear error. */
const STDIO_MAX_MESSAGE = 48 * 1024 * 1024;
const MAX_TOOLS = 1000;
/** Up this long, a server's next crash counts as the first of a new series. */
const STABLE_MS = 60_000;
const secs = (ms: number) => (ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000)));

/** One configured server: its client, lazily connected, restarted with back-off when it dies. */
export class McpConnection {
  private state: McpServerStatus['state'];
  private message?: string;
  private tools: McpTool[] = [];
  private serverInfo?: { name: string; version: string };
  private client?: SdkClient;
  private starting?: Promise<void>;
  private generation = 0;
  private crashes = 0;
  private readyAt = 0;
  private retryAt = 0;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private lastProtocolError?: string;
  readonly stderr = new RingLog();

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions,
    private readonly log: Logger,
  ) {
    this.state = config.disabled ? 'disabled' : 'stopped';
  }

  status(): McpServerStatus {
    const s: McpServerStatus = {
      name: this.config.name,
      transport: this.config.transport,
      state: this.state,
      tools: this.tools,
    };
    if (this.message) s.message = this.message;
    if (this.serverInfo) s.serverInfo = this.serverInfo;
    if (this.state === 'restarting') s.retryInMs = Math.max(0, this.retryAt - Date.now());
    return s;
  }

  get running(): boolean {
    return this.state === 'ready' || this.state === 'starting' || this.state === 'restarting';
  }

  /** Connects if not connected; resolves when ready or failed (the status tells which), never rejects. */
  async start(): Promise<McpServerStatus> {
    if (this.config.disabled) return this.status();
    if (this.state !== 'ready') {
      clearTimeout(this.retryTimer);
      this.starting ??= this.connect().finally(() => (this.starting = undefined));
      await this.starting;
    }
    return this.status();
  }

  async stop(): Promise<McpServerStatus> {
    this.generation++;
    clearTimeout(this.retryTimer);
    this.state = this.config.disabled ? 'disabled' : 'stopped';
    this.message = undefined;
    this.crashes = 0;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
    return this.status();
  }

  async restart(): Promise<McpServerStatus> {
    await this.stop();
    return this.start();
  }

  private async connect(): Promise<void> {
    const gen = ++this.generation;
    const name = this.config.name;
    this.state = 'starting';
    this.message = undefined;
    this.lastProtocolError = undefined;
    let client: SdkClient | undefined;
    try {
      const s = await sdk();
      client = await this.open(s, gen);
      if (gen !== this.generation) {
        await client.close().catch(() => {});
        return;
      }
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: this.opts.connectTimeoutMs });
        for (const t of page.tools)
          tools.push({
            name: t.name,
            title: t.title,
            description: t.description,
            inputSchema: t.inputSchema as Record<string, unknown>,
          });
        cursor = page.nextCursor;
      } while (cursor && tools.length < MAX_TOOLS);
      if (gen !== this.generation) return;
      this.client = client;
      this.tools = tools;
      const info = client.getServerVersion();
      this.serverInfo = info ? { name: String(info.name), version: String(info.version) } : undefined;
      this.state = 'ready';
      this.readyAt = Date.now();
      this.log.info('mcp server ready', { name, tools: tools.length });
    } catch (e) {
      await client?.close().catch(() => {});
      if (gen !== this.generation) return;
      this.state = 'error';
      this.message = this.describe(e, 'start');
      this.log.warn('mcp server failed to start', { name, message: this.message });
    }
  }

  /** Opens the transport: stdio, or Streamable HTTP falling back to SSE when the server refuses the POST (4xx). */
  private async open(s: Sdk, gen: number): Promise<SdkClient> {
    const c = this.config;
    const connect = async (transport: Transport) => {
      const client = new s.Client({ name: 'HubDesk', version: this.opts.version });
      client.onerror = (e) => (this.lastProtocolError = e.message.slice(0, 300));
      client.onclose = () => this.closed(gen);
      try {
        await client.connect(transport, { timeout: this.opts.connectTimeoutMs });
      } catch (e) {
        // A server that hangs or babbles is still a running process: end it.
        await client.close().catch(() => {});
        throw e;
      }
      return client;
    };
    if (c.transport === 'stdio') {
      const transport = new s.StdioClientTransport({
        command: c.command!,
        args: c.args,
        cwd: c.cwd,
        // A minimal safe environment (PATH, HOME…), plus what the config sets: never all of HubDesk's own.
        env: { ...s.getDefaultEnvironment(), ...c.env },
        stderr: 'pipe',
        maxBufferSize: STDIO_MAX_MESSAGE,
      });
      transport.stderr?.on('data', (d: Buffer) => this.stderr.append(d.toString()));
      return connect(transport);
    }
    const url = new URL(c.url!);
    const http = { requestInit: { headers: c.headers }, fetch: this.opts.fetch };
    if (c.transport === 'sse') return connect(new s.SSEClientTransport(url, http));
    try {
      return await connect(new s.StreamableHTTPClientTransport(url, http));
    } catch (e) {
      const code = e instanceof s.StreamableHTTPError ? e.code : undefined;
      if (code === undefined || code < 400 || code >= 500 || code === 401 || code === 403) throw e;
      this.log.info('mcp server: Streamable HTTP refused, trying SSE', { name: c.name, status: code });
      return connect(new s.SSEClientTransport(url, http));
    }
  }

  /** The connection ended: a stop we asked for is ignored; a crash is restarted with capped exponential back-off. */
  private closed(gen: number): void {
    if (gen !== this.generation || this.state !== 'ready') return;
    this.client = undefined;
    // A server that ran for a while before dying starts a fresh series of back-offs.
    if (Date.now() - this.readyAt > STABLE_MS) this.crashes = 0;
    this.crashes++;
    const why = this.stderr.lastLine();
    const exited = `The server exited${why ? `: ${why}` : ''}`;
    if (this.crashes > this.opts.maxRestarts) {
      this.state = 'error';
      this.message = `${exited}. It stopped ${this.crashes} times in a row; press Restart to try again.`;
      this.log.warn('mcp server gave up restarting', { name: this.config.name });
      return;
    }
    const delay = Math.min(this.opts.restartBaseMs * 2 ** (this.crashes - 1), this.opts.restartMaxMs);
    this.state = 'restarting';
    this.message = exited;
    this.retryAt = Date.now() + delay;
    this.log.warn('mcp server exited; restarting', { name: this.config.name, delayMs: delay });
    this.retryTimer = setTimeout(() => {
      if (gen !== this.generation) return;
      this.starting ??= this.connect().finally(() => (this.starting = undefined));
    }, delay);
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<McpToolResult> {
    const name = this.config.name;
    if (this.config.disabled) throw new AppError('unavailable', `"${name}" is disabled in mcp.json.`);
    await this.start();
    const client = this.client;
    if (this.state !== 'ready' || !client)
      throw new AppError('unavailable', `"${name}" is not running: ${this.message ?? this.state}`);
    if (!this.tools.some((t) => t.name === tool)) {
      const known = this.tools.map((t) => t.name).slice(0, 20);
      throw new AppError('not_found', `"${name}" has no tool "${tool}" (its tools: ${known.join(', ') || 'none'}).`);
    }
    const timeout = opts.timeoutMs ?? this.opts.callTimeoutMs;
    const t0 = performance.now();
    try {
      const res = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout,
        maxTotalTimeout: timeout,
      });
      const parts = Array.isArray(res.content) ? res.content : [];
      if (!parts.length && 'structuredContent' in res && res.structuredContent)
        parts.push({ type: 'text', text: JSON.stringify(res.structuredContent) });
      if (!parts.length && 'toolResult' in res) parts.push({ type: 'text', text: JSON.stringify(res.toolResult) });
      const { content, truncated } = boundContent(parts);
      return {
        server: name,
        tool,
        content,
        isError: res.isError === true,
        truncated,
        durationMs: Math.round(performance.now() - t0),
      };
    } catch (e) {
      if (opts.signal?.aborted) throw new AppError('aborted', `Cancelled ${tool} on "${name}".`);
      throw new AppError(...this.callError(e, tool, timeout));
    }
  }

  private callError(e: unknown, tool: string, timeout: number): [AppError['code'], string] {
    const err = e as { code?: unknown; message?: string };
    const name = this.config.name;
    const garbled = this.lastProtocolError
      ? ` It also sent something that is not JSON-RPC: ${this.lastProtocolError}`
      : '';
    if (err.code === -32001)
      return ['timeout', `"${name}" did not answer ${tool} within ${secs(timeout)} s.${garbled}`];
    if (/fetch failed|ECONNREFUSED|ECONNRESET/.test(String(err.message)))
      return ['unavailable', `"${name}" could not be reached for ${tool}: ${this.describe(e, 'call')}`];
    if (err.code === -32000 || this.state !== 'ready')
      return ['unavailable', `"${name}" stopped during ${tool}: ${this.describe(e, 'call')}`];
    return ['upstream', `"${name}" refused ${tool}: ${(err.message ?? String(e)).replace(/^MCP error -?\d+: /, '')}`];
  }

  /** An error in words a person can act on, with the server's last stderr line when it explains more. */
  private describe(e: unknown, phase: 'start' | 'call'): string {
    const err = e as { code?: unknown; message?: string };
    const msg = String(err.message ?? e).slice(0, 500);
    const why = this.stderr.lastLine();
    const tail = why ? ` Its last output: ${why}` : '';
    const c = this.config;
    if (err.code === 'ENOENT' || /\bENOENT\b/.test(msg))
      return `The command "${c.command}" was not found: check "command" in mcp.json (and that it is on PATH).`;
    if (err.code === 'EACCES') return `The command "${c.command}" cannot be run (permission denied).`;
    if (err.code === -32001)
      return `It did not answer ${phase === 'start' ? 'initialize' : 'in time'} within ${secs(this.opts.connectTimeoutMs)} s.${this.lastProtocolError ? ` It sent something that is not JSON-RPC: ${this.lastProtocolError}` : ''}${tail}`;
    if (err.code === -32000)
      return `It ${phase === 'start' ? 'exited while starting' : 'closed the connection'}.${tail}`;
    if (/ReadBuffer exceeded/.test(msg)) return `It sent a message larger than ${STDIO_MAX_MESSAGE / 1024 / 1024} MB.`;
    const company = c.url ? companyNetworkProblem(e, c.url) : undefined;
    if (company) return company.message;
    if (/fetch failed|ECONNREFUSED/.test(msg)) return `Nothing answers at ${c.url}: is the server running?`;
    if (/\b401\b|Unauthorized/i.test(msg)) return `${c.url} refused the credentials (HTTP 401): check "headers".`;
    return `${msg}${tail}`;
  }
}
