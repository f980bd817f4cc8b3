import { existsSync, readFileSync, renameSync } from 'node:fs';
import {
  endpointSettings,
  settingsSchema,
  type EndpointSetting,
  type SettingKey,
  type Settings,
  type SettingsPatch,
  type SettingsView,
} from '@shared/contract/settings';
import { endpointEnv } from '@shared/environment';
import { AppError } from '@shared/errors';
import { writeFileAtomic } from './fs/atomic-write';
import type { Logger } from './log';
import { parseEndpoint } from './net/endpoints';
import type { KeyBindings } from './net/key-bindings';
import type { SecretStore } from './secrets';

type Env = Record<string, string | undefined>;

/** @public Read at build time by scripts/first-screen.ts (through Vite's module loader). */
export const defaultSettings: Settings = {
  ollamaHost: endpointEnv.ollamaHost.default,
  hubEndpoint: endpointEnv.hubEndpoint.default,
  routerUrl: endpointEnv.routerUrl.default,
  falRestBase: endpointEnv.falRestBase.default,
  defaultProvider: 'hf-inference',
  billTo: '',
  theme: 'system',
  noProxy: '',
  caFile: '',
  hubAccess: 'ask',
};

/** OLLAMA_HOST as Ollama reads it: `host`, `host:port`, `0.0.0.0` or a full URL. */
export function normalizeOllamaHost(raw: string): string {
  let s = raw.trim();
  if (!/^[a-z]+:\/\//i.test(s)) s = `http://${s}`;
  const url = new URL(s);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (!url.port && url.protocol === 'http:' && !/:\d+/.test(s.replace(/^[a-z]+:\/\//i, ''))) url.port = '11434';
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Endpoint values from the environment, each parsed once; an unparsable or refused one is ignored. */
export function endpointsFromEnv(env: Env): Partial<Record<EndpointSetting, string>> {
  const out: Partial<Record<EndpointSetting, string>> = {};
  for (const setting of endpointSettings) {
    const raw = env[endpointEnv[setting].name]?.trim();
    if (!raw) continue;
    try {
      out[setting] = parseEndpoint(setting === 'ollamaHost' ? normalizeOllamaHost(raw) : raw).href;
    } catch {
      // Ignored: the settings page shows the default in use.
    }
  }
  return out;
}

const endpointLabels: Record<EndpointSetting, string> = {
  hubEndpoint: 'Hub endpoint',
  routerUrl: 'Inference router',
  falRestBase: 'fal REST base',
  ollamaHost: 'Ollama host',
};

/** A value the page (or a stored settings file) gives an endpoint, parsed once: `invalid_input` if refused. */
function userEndpoint(setting: EndpointSetting, raw: string): string {
  const href = parseEndpoint(raw, endpointLabels[setting]).href;
  // Ollama's own default port applies when none is written (checked on the text: the URL parser drops `:80`).
  return setting === 'ollamaHost' ? parseEndpoint(normalizeOllamaHost(raw), endpointLabels[setting]).href : href;
}

/**
 * Settings files of earlier versions: `hubSearch` (a switch that was off until the user turned it on) became
 * `hubAccess`; a stored value was a choice the user made, so it is kept as that choice.
 */
function migrateValues(values: unknown): unknown {
  if (!values || typeof values !== 'object' || Array.isArray(values)) return values;
  const { hubSearch, ...rest } = values as Record<string, unknown>;
  if (typeof hubSearch === 'boolean' && rest.hubAccess === undefined) rest.hubAccess = hubSearch ? 'online' : 'offline';
  return rest;
}

/**
 * The one reader of settings.json: the values the user stored, migrated and validated; undefined when there is no
 * file. Throws when the file cannot be read or holds a value the settings refuse (the settings service then moves it
 * aside and starts from defaults, so whatever else reads it must treat that as "nothing set").
 */
export function readSettingsFile(file: string): Partial<Settings> | undefined {
  if (!existsSync(file)) return undefined;
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { values?: unknown };
  const parsed = settingsSchema.partial().safeParse(migrateValues(raw.values ?? {}));
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

/**
 * The Hub endpoint the settings service would use (the user's, else the environment's, else the Hub), read without
 * it: the page's CSP is served before the services start (web mode). A file the service would set aside counts as
 * nothing set.
 */
export function hubEndpointIn(file: string, env: Env): string {
  try {
    const stored = readSettingsFile(file)?.hubEndpoint;
    if (stored) return userEndpoint('hubEndpoint', stored);
  } catch {
    // Unreadable or refused: the service starts from the environment and defaults too.
  }
  return endpointsFromEnv(env).hubEndpoint ?? defaultSettings.hubEndpoint;
}

/** The user's settings, persisted as JSON in the data dir; environment values fill what the user has not set. */
export class SettingsService {
  private user: Partial<Settings> = {};
  private readonly env: Partial<Settings>;
  private listeners = new Set<(s: Settings) => void>();

  constructor(
    private readonly file: string,
    env: Env,
    private readonly secrets: SecretStore,
    private readonly log: Logger,
    private readonly keys?: KeyBindings,
  ) {
    this.env = endpointsFromEnv(env);
    this.load();
  }

  private load(): void {
    try {
      this.user = readSettingsFile(this.file) ?? {};
      for (const setting of endpointSettings) {
        const v = this.user[setting];
        if (v === undefined) continue;
        try {
          this.user[setting] = userEndpoint(setting, v);
        } catch (e) {
          // A refused address (an older version accepted it) falls back to the default rather than being called.
          delete this.user[setting];
          this.log.warn('stored endpoint refused; using the default', { setting, reason: (e as Error).message });
        }
      }
    } catch (e) {
      // Never fail start-up over a damaged file: keep it aside for the user and start from defaults.
      const aside = `${this.file}.corrupt-${Date.now()}`;
      renameSync(this.file, aside);
      this.log.warn('settings file unreadable; moved aside', { aside, reason: String(e) });
    }
  }

  get(): Settings {
    return { ...defaultSettings, ...this.env, ...this.user };
  }

  view(): SettingsView {
    const sources: Record<string, 'default' | 'env' | 'user'> = {};
    for (const key of Object.keys(defaultSettings) as SettingKey[]) {
      sources[key] = key in this.user ? 'user' : key in this.env ? 'env' : 'default';
    }
    const values = this.get();
    return {
      values,
      sources,
      secrets: this.secrets.status(),
      bindings: this.keys?.view(values) ?? [],
      canApproveHosts: this.keys?.canApprove ?? false,
      secretStorage: { kind: this.secrets.storage(), keepWithoutKeyring: this.secrets.keepWithoutKeyring },
    };
  }

  update(patch: SettingsPatch): SettingsView {
    const next: Record<string, unknown> = { ...this.user };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else if ((endpointSettings as readonly string[]).includes(key))
        next[key] = userEndpoint(key as EndpointSetting, String(value));
      else next[key] = value;
    }
    const parsed = settingsSchema.partial().safeParse(next);
    if (!parsed.success) throw new AppError('invalid_input', `Invalid settings: ${parsed.error.issues[0]?.message}`);
    this.user = parsed.data;
    // A host changed from the page never inherits a key: approvals of hosts no longer in use are dropped.
    this.keys?.dropUnused(this.get());
    writeFileAtomic(this.file, JSON.stringify({ version: 1, values: this.user }, null, 2));
    const current = this.get();
    for (const fn of this.listeners) fn(current);
    return this.view();
  }

  onChange(fn: (s: Settings) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
