import type { AppInfo } from '@shared/contract/app';
import type { CatalogueService } from './catalogue/service';
import type { ChatService } from './chat/service';
import type { CompareService } from './compare/service';
import type { DocumentsOptions, DocumentsService, OpenDialogPort } from './documents/service';
import type { EndpointsService } from './endpoints/service';
import type { Engines } from './engines/registry';
import type { StreamLimits } from './engines/sse-data';
import type { FalService } from './fal/service';
import type { GgufHeaderReader } from './fit/gguf-header';
import type { HardwareService, RunTool } from './hardware/service';
import type { HubService } from './hub/service';
import type { LocalOptions, LocalService } from './local/service';
import type { Logger } from './log';
import type { McpOptions, McpService } from './mcp/manager';
import type { AskApproval, KeyBindings } from './net/key-bindings';
import type { Network } from './net/network';
import type { OllamaService } from './ollama/service';
import type { Cipher, SecretStoreImpl } from './secrets';
import type { SettingsService } from './settings';
import type { SaveDialogPort, SnippetService } from './snippets/service';

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
