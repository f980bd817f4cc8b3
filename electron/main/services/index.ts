import { join } from 'node:path';
import type { AppInfo } from '@shared/contract/app';
import { createLogger, type Logger } from './log';
import { OllamaService } from './ollama/service';
import { SecretStoreImpl, type Cipher } from './secrets';
import { SettingsService } from './settings';

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
}

export interface Services {
  info: AppInfo;
  log: Logger;
  secrets: SecretStoreImpl;
  settings: SettingsService;
  ollama: OllamaService;
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
    openExternal: opts.openExternal,
  };
}
