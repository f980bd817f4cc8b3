import { join } from 'node:path';
import type { AppInfo } from '@shared/contract/app';
import { CatalogueService } from './catalogue/service';
import { ChatService } from './chat/service';
import { ChatStore } from './chat/store';
import { HubClient } from './hub/client';
import { HubService } from './hub/service';
import { createLogger, type Logger } from './log';
import { OllamaService } from './ollama/service';
import { SecretStoreImpl, type Cipher } from './secrets';
import { SettingsService } from './settings';
import { FalService } from './fal/service';
import { SnippetService, type SaveDialogPort } from './snippets/service';

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
  /** Hub client tuning (tests: no real waits between retries, short timeouts). */
  hub?: { sleep?: (ms: number) => Promise<void>; timeoutMs?: number };
  /** Chat tuning (tests: the web-tools fixture, short retry waits). */
  chat?: {
    webBase?: string;
    checkpointMs?: number;
    retryBaseMs?: number;
    maxToolRounds?: number;
    providerTimeoutMs?: number;
  };
  /** Ollama client tuning (tests: a short wait for response headers). */
  ollama?: { timeoutMs?: number };
}

export interface Services {
  info: AppInfo;
  log: Logger;
  secrets: SecretStoreImpl;
  settings: SettingsService;
  ollama: OllamaService;
  snippets: SnippetService;
  fal: FalService;
  catalogue: CatalogueService;
  hub: HubService;
  chat: ChatService;
  openExternal?: (url: string) => Promise<void>;
}

/** Builds every plain-Node service once; the Electron app, the web mode, the CLI and the tests all start here. */
export function createServices(opts: ServicesOptions): Services {
  const env = opts.env ?? process.env;
  const secrets = new SecretStoreImpl(
    env,
    opts.cipher ? { file: join(opts.dataDir, 'secrets.json'), cipher: opts.cipher } : undefined,
  );
  const log = createLogger({
    file: join(opts.dataDir, 'logs', 'hubdesk.log'),
    secrets: () => secrets.values(),
    echo: opts.logEcho,
  });
  const settings = new SettingsService(join(opts.dataDir, 'settings.json'), env, secrets, log);
  const ollama = new OllamaService({
    host: () => settings.get().ollamaHost,
    apiKey: () => secrets.get('ollamaApiKey'),
    log,
    timeoutMs: opts.ollama?.timeoutMs,
  });
  const hub = new HubService({
    client: new HubClient({
      endpoint: () => settings.get().hubEndpoint,
      token: () => secrets.get('hfToken'),
      cacheDir: join(opts.dataDir, 'cache', 'hub'),
      log,
      sleep: opts.hub?.sleep,
      timeoutMs: opts.hub?.timeoutMs,
    }),
    enabled: () => settings.get().hubAccess === 'online',
  });
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
    ollama,
    snippets: new SnippetService({
      log,
      ollamaHost: () => settings.get().ollamaHost,
      billTo: () => settings.get().billTo,
      hfToken: () => secrets.get('hfToken'),
      saveDialog: opts.saveDialog,
    }),
    fal: new FalService({ restBase: () => settings.get().falRestBase, key: () => secrets.get('falKey'), log }),
    catalogue: new CatalogueService(),
    hub,
    chat: new ChatService({
      store: new ChatStore({ file: join(opts.dataDir, 'chats.sqlite'), legacyDir: join(opts.dataDir, 'chats') }, log),
      ollama,
      log,
      router: () => ({ routerUrl: settings.get().routerUrl, billTo: settings.get().billTo }),
      hfToken: () => secrets.get('hfToken'),
      ollamaApiKey: () => secrets.get('ollamaApiKey'),
      webBase: () => opts.chat?.webBase ?? env.HUBDESK_OLLAMA_WEB_BASE ?? 'https://ollama.com',
      checkpointMs: opts.chat?.checkpointMs,
      retryBaseMs: opts.chat?.retryBaseMs,
      maxToolRounds: opts.chat?.maxToolRounds,
      providerTimeoutMs: opts.chat?.providerTimeoutMs,
    }),
    openExternal: opts.openExternal,
  };
}
