import { join } from 'node:path';
import type { AppInfo } from '@shared/contract/app';
import { envVar } from '@shared/environment';
import { CatalogueService } from './catalogue/service';
import { ChatService } from './chat/service';
import { ChatStore } from './chat/storage/store';
import { CompareRunner } from './compare/runner';
import { CompareService } from './compare/service';
import { Engines, type EngineOptions } from './engines/registry';
import { HubClient } from './hub/client';
import { HubService } from './hub/service';
import { GgufHeaderReader } from './fit/gguf-header';
import { HardwareService, type RunTool } from './hardware/service';
import { createLogger, type Logger } from './log';
import { ollamaModelDirs } from './ollama/disk-check';
import { OllamaService } from './ollama/service';
import { SecretStoreImpl, type Cipher } from './secrets';
import { KeyBindings, keyOfEndpoint, type AskApproval } from './net/key-bindings';
import { boundFetch } from './net/bound-fetch';
import { Network } from './net/network';
import { proxyPasswords } from './net/proxy-rules';
import { endpointsFromEnv, SettingsService } from './settings';
import { settingsFile } from './data-dir';
import { FalService } from './fal/service';
import { EndpointsService } from './endpoints/service';
import { EndpointStore } from './endpoints/store';
import type { McpService, McpOptions } from './mcp/manager';
import { SnippetService, type SaveDialogPort } from './snippets/service';
import { LocalService, type LocalOptions } from './local/service';
import { fitHardware } from '@shared/fit';
import { installedEmbedders } from './documents/choose-embedder';
import { createEmbedder } from './documents/embedder';
import type { StreamLimits } from './engines/sse-data';
import { IndexStore } from './documents/index-store';
import { DocumentsService, type DocumentsOptions, type OpenDialogPort } from './documents/service';

export interface ServicesOptions {
  dataDir: string;
  mode: AppInfo['mode'];
  version: string;
  env?: Record<string, string | undefined>;
  /** Desktop only: the OS-backed cipher that lets secrets persist encrypted. */
  cipher?: Cipher;
  /** Opens an allowed https link in the system browser; absent where the browser itself opens links. */
  openExternal?: (url: string) => Promise<void>;
  logEcho?: boolean;
  /** Desktop only: the native save dialog ("Save to project…"); absent in web mode, where the browser downloads. */
  saveDialog?: SaveDialogPort;
  /** Desktop only: the native open dialog (Attach); absent in web mode, where the page uploads. */
  openDialog?: OpenDialogPort;
  /** Documents tuning (tests: small batches, a short settle for watched folders, when indexing resumes). */
  documents?: Pick<DocumentsOptions, 'batch' | 'settleMs' | 'maxFolderFiles' | 'extract'> & { startDelayMs?: number };
  /**
   * Hub client tuning (tests: no real waits between retries, short timeouts). `consented`: the Hub is asked whatever
   * Settings' Hub access says (the CLI: naming a model on the command line is the consent to look it up).
   */
  hub?: { sleep?: (ms: number) => Promise<void>; timeoutMs?: number; bodyTimeoutMs?: number; consented?: boolean };
  /** Chat tuning (tests: the web-tools fixture, short retry waits). */
  chat?: {
    webBase?: string;
    checkpointMs?: number;
    retryBaseMs?: number;
    maxToolRounds?: number;
    providerTimeoutMs?: number;
    /** How long to wait for an endpoint's response headers. */
    endpointTimeoutMs?: number;
    /** Caps on streamed endpoint and router replies (engines/sse-data.ts). */
    streamLimits?: Partial<StreamLimits>;
    toolTimeoutMs?: number;
  };
  /** Desktop only: asks the user in a main-process dialog whether a key may go to a host set in the page. */
  approveHost?: AskApproval;
  /** Desktop only: the system's proxy for a URL (Electron's session.resolveProxy, PAC included). */
  systemProxy?: (url: string) => Promise<string>;
  /** Ollama client tuning (tests: a short wait for response headers). */
  ollama?: { timeoutMs?: number };
  /** MCP client tuning (tests: short timeouts and restart waits). */
  mcp?: Partial<
    Pick<McpOptions, 'connectTimeoutMs' | 'callTimeoutMs' | 'restartBaseMs' | 'restartMaxMs' | 'maxRestarts'>
  >;
  /** Hardware probing (tests: captured tool outputs instead of running nvidia-smi / rocm-smi). */
  hardware?: { run?: RunTool; platform?: NodeJS.Platform; arch?: string };
  /** The built-in engine (tests: a home with HF cache fixtures, CPU only with one thread, a full disk). */
  local?: Pick<
    LocalOptions,
    'home' | 'runtime' | 'freeBytes' | 'serve' | 'spawnEngine' | 'serverConnections' | 'clipboard'
  >;
}

export interface Services {
  info: AppInfo;
  log: Logger;
  secrets: SecretStoreImpl;
  settings: SettingsService;
  keys: KeyBindings;
  /** Every outbound call's way out: the proxy (Settings, environment, system), loopback direct, and TLS trust. */
  network: Network;
  ollama: OllamaService;
  snippets: SnippetService;
  fal: FalService;
  catalogue: CatalogueService;
  hub: HubService;
  chat: ChatService;
  /** Compare: one prompt to several panes, the runs kept in the chat database with votes and saved sets. */
  compare: CompareService;
  /** The user's OpenAI-compatible servers (llama.cpp, LM Studio, vLLM…): the chat engines reach them through it. */
  endpoints: EndpointsService;
  hardware: HardwareService;
  ggufHeaders: GgufHeaderReader;
  /** The built-in llama.cpp engine: node-llama-cpp is imported on its first use, never at launch. */
  local: LocalService;
  /** Every chat engine and what each knows (the chat, Compare and Documents share it). */
  engines: Engines;
  /** Documents attached to chats and knowledge bases: indexing in the background, retrieval for replies. */
  documents: DocumentsService;
  openExternal?: (url: string) => Promise<void>;
  /** MCP servers: built on first use (nothing MCP starts or loads at app start-up). */
  mcp(): Promise<McpService>;
  /** Stops what runs in the background (MCP servers): the Electron and web entries call it on quit. */
  dispose(): Promise<void>;
}

/** Builds every plain-Node service once; the Electron app, the web mode, the CLI and the tests all start here. */
export function createServices(opts: ServicesOptions): Services {
  const env = opts.env ?? process.env;
  let mcp: McpService | undefined;
  let mcpLoading: Promise<McpService> | undefined;
  const secrets = new SecretStoreImpl(
    env,
    opts.cipher ? { file: join(opts.dataDir, 'secrets.json'), cipher: opts.cipher } : undefined,
  );
  // Endpoint keys join once the endpoints service exists (it needs the logger, which masks them).
  let endpointKeys = (): string[] => [];
  // Every secret main holds: masked in the log and in whatever a server answers.
  const knownSecrets = () => [
    ...secrets.values(),
    ...(mcp?.secrets.values() ?? []),
    ...endpointKeys(),
    ...proxyPasswords(env, secrets.get('proxy')),
  ];
  const log = createLogger({
    file: join(opts.dataDir, 'logs', 'hubdesk.log'),
    secrets: knownSecrets,
    echo: opts.logEcho,
  });
  // Each key goes only to the hosts it is bound to: its own service's, those set outside the page, approved ones.
  const webBaseVar = envVar('HUBDESK_OLLAMA_WEB_BASE');
  const webBase = () => opts.chat?.webBase ?? env[webBaseVar.name] ?? webBaseVar.default!;
  const keys = new KeyBindings({
    file: opts.approveHost ? join(opts.dataDir, 'key-approvals.json') : undefined,
    secrets,
    log,
    ask: opts.approveHost,
    trusted: [
      ...Object.entries(endpointsFromEnv(env)).map(([s, url]) => ({ key: keyOfEndpoint[s as 'hubEndpoint'], url })),
      { key: 'ollamaApiKey' as const, url: webBase() },
    ],
  });
  const settings = new SettingsService(settingsFile(opts.dataDir), env, secrets, log, keys);
  const network = new Network({
    env,
    settings: () => ({ proxy: secrets.get('proxy'), noProxy: settings.get().noProxy, caFile: settings.get().caFile }),
    systemProxy: opts.systemProxy,
    log,
  });
  // The only way a key goes onto the wire: to the hosts it is bound to, never after a redirect to another origin.
  const bound = { secrets: knownSecrets, base: network.fetch };
  const hfFetch = boundFetch('hfToken', keys, bound);
  const ollamaKeyFetch = boundFetch('ollamaApiKey', keys, bound);
  const loadMcp = () =>
    (mcpLoading ??= import('./mcp/manager').then(({ McpService }) => {
      mcp = new McpService({
        ...opts.mcp,
        file: join(opts.dataDir, 'mcp.json'),
        secretsFile: join(opts.dataDir, 'mcp-secrets.json'),
        cipher: opts.cipher,
        version: opts.version,
        log,
        fetch: network.fetch,
      });
      return mcp;
    }));
  const endpoints = new EndpointsService({
    store: new EndpointStore({
      file: join(opts.dataDir, 'endpoints.json'),
      keysFile: join(opts.dataDir, 'endpoint-keys.json'),
      cipher: opts.cipher,
      // The rule the other keys follow: on disk only under the keychain, or where the user opted in without one.
      persistent: () =>
        secrets.storage() === 'keychain' || (secrets.storage() === 'basic_text' && secrets.keepWithoutKeyring),
      log,
    }),
    env,
    log,
    secrets: knownSecrets,
    baseFetch: network.fetch,
  });
  endpointKeys = () => endpoints.secrets();
  const ollama = new OllamaService({
    host: () => settings.get().ollamaHost,
    keyedFetch: ollamaKeyFetch,
    log,
    timeoutMs: opts.ollama?.timeoutMs,
    pullDisk: {
      size: async (repo, quant) =>
        (await hub.model(repo)).quants.find((q) => q.label.toLowerCase() === quant.toLowerCase())?.size,
      dirs: () => ollamaModelDirs(env),
    },
  });
  const hubEnabled = () => !!opts.hub?.consented || settings.get().hubAccess === 'online';
  const hardware = new HardwareService({ override: () => settings.get().hardwareOverride, log, ...opts.hardware });
  const local = new LocalService({
    ...opts.local,
    dataDir: opts.dataDir,
    env,
    log,
    cipher: opts.cipher,
    hubEndpoint: () => settings.get().hubEndpoint,
    hubFetch: hfFetch,
    hubEnabled,
    hardware: async () => {
      try {
        return fitHardware((await hardware.view()).effective);
      } catch {
        return undefined;
      }
    },
  });
  const hub = new HubService({
    client: new HubClient({
      endpoint: () => settings.get().hubEndpoint,
      authed: () => !!keys.forUrl('hfToken', settings.get().hubEndpoint),
      fetch: hfFetch,
      cacheDir: join(opts.dataDir, 'cache', 'hub'),
      log,
      sleep: opts.hub?.sleep,
      timeoutMs: opts.hub?.timeoutMs,
      bodyTimeoutMs: opts.hub?.bodyTimeoutMs,
    }),
    enabled: hubEnabled,
  });
  const snippets = new SnippetService({
    log,
    ollamaHost: () => settings.get().ollamaHost,
    billTo: () => settings.get().billTo,
    // The token is written into code only for an address it is bound to.
    hfToken: (url) => keys.forUrl('hfToken', url),
    hfTokenSet: () => !!secrets.get('hfToken'),
    saveDialog: opts.saveDialog,
  });
  // The engines' options, once: the chat's replies and Compare's panes reach the same servers the same way.
  const engineOptions: EngineOptions = {
    ollama,
    log,
    router: () => ({ routerUrl: settings.get().routerUrl, billTo: settings.get().billTo }),
    hfToken: () => keys.forUrl('hfToken', settings.get().routerUrl),
    routerFetch: hfFetch,
    retryBaseMs: opts.chat?.retryBaseMs,
    providerTimeoutMs: opts.chat?.providerTimeoutMs,
    endpoints,
    endpointTimeoutMs: opts.chat?.endpointTimeoutMs,
    streamLimits: opts.chat?.streamLimits,
    local,
    hfTokenWithheld: () => keys.withheld('hfToken', settings.get().routerUrl),
    snippets: () => snippets,
  };
  // One registry of engines: the chat's replies, Compare's panes and Documents' embeddings ask the same engines.
  const engines = new Engines(engineOptions);
  const chatStore = new ChatStore(
    { file: join(opts.dataDir, 'chats.sqlite'), legacyDir: join(opts.dataDir, 'chats') },
    log,
  );
  const documents = new DocumentsService({
    index: new IndexStore(chatStore),
    embed: createEmbedder(engines),
    installed: () => installedEmbedders({ ollama: () => ollama.list(), local: () => local.library.list() }),
    log,
    uploadsDir: join(opts.dataDir, 'documents', 'uploads'),
    openDialog: opts.openDialog,
    ...opts.documents,
  });
  // Indexing left unfinished by the last run goes on a little after launch (never in the first call's way).
  const docsStart = setTimeout(
    () => void documents.start().catch((e: Error) => log.warn('documents not resumed', { message: e.message })),
    opts.documents?.startDelayMs ?? 3_000,
  );
  docsStart.unref();
  return {
    info: {
      name: 'HubDesk',
      version: opts.version,
      mode: opts.mode,
      platform: process.platform,
      dataDir: opts.dataDir,
    },
    log,
    secrets,
    settings,
    keys,
    network,
    ollama,
    snippets,
    fal: new FalService({
      restBase: () => settings.get().falRestBase,
      key: () => keys.forUrl('falKey', settings.get().falRestBase),
      withheld: () => keys.withheld('falKey', settings.get().falRestBase),
      fetch: boundFetch('falKey', keys, bound),
      log,
    }),
    catalogue: new CatalogueService(),
    hub,
    endpoints,
    chat: new ChatService({
      ...engineOptions,
      engines,
      store: chatStore,
      ollamaApiKey: () => keys.forUrl('ollamaApiKey', webBase()),
      webFetch: ollamaKeyFetch,
      webBase,
      checkpointMs: opts.chat?.checkpointMs,
      maxToolRounds: opts.chat?.maxToolRounds,
      toolTimeoutMs: opts.chat?.toolTimeoutMs,
      mcp: () => loadMcp(),
      retrieval: documents,
    }),
    compare: new CompareService({
      chat: chatStore,
      runner: new CompareRunner({ engines, log, hardware }),
      hardware,
      engines,
      log,
    }),
    hardware,
    local,
    engines,
    documents,
    ggufHeaders: new GgufHeaderReader({
      endpoint: () => settings.get().hubEndpoint,
      fetch: hfFetch,
      enabled: hubEnabled,
      log,
      timeoutMs: opts.hub?.timeoutMs,
    }),
    openExternal: opts.openExternal,
    mcp: loadMcp,
    dispose: async () => {
      clearTimeout(docsStart);
      await documents.dispose();
      await local.dispose();
      if (mcpLoading) await (await mcpLoading).dispose();
      await network.close();
    },
  };
}
