import { existsSync, readFileSync, renameSync } from 'node:fs';
import {
  settingsSchema,
  type SettingKey,
  type Settings,
  type SettingsPatch,
  type SettingsView,
} from '@shared/contract/settings';
import { writeFileAtomic } from './fs/atomic-write';
import type { Logger } from './log';
import type { SecretStore } from './secrets';

type Env = Record<string, string | undefined>;

export const defaultSettings: Settings = {
  ollamaHost: 'http://127.0.0.1:11434',
  hubEndpoint: 'https://huggingface.co',
  routerUrl: 'https://router.huggingface.co',
  falRestBase: 'https://rest.fal.ai',
  defaultProvider: 'hf-inference',
  billTo: '',
  theme: 'system',
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

function fromEnv(env: Env): Partial<Settings> {
  const out: Partial<Settings> = {};
  if (env.OLLAMA_HOST?.trim()) {
    try {
      out.ollamaHost = normalizeOllamaHost(env.OLLAMA_HOST);
    } catch {
      // An unparsable OLLAMA_HOST is ignored; the settings page shows the default in use.
    }
  }
  if (env.HF_ENDPOINT?.trim()) out.hubEndpoint = env.HF_ENDPOINT.trim().replace(/\/+$/, '');
  return out;
}

/**
 * Settings files of earlier versions: `hubSearch` (a switch that was off until the user turned it on) became
 * `hubAccess`; a stored value was a choice the user made, so it is kept as that choice.
 */
export function migrateValues(values: unknown): unknown {
  if (!values || typeof values !== 'object' || Array.isArray(values)) return values;
  const { hubSearch, ...rest } = values as Record<string, unknown>;
  if (typeof hubSearch === 'boolean' && rest.hubAccess === undefined) rest.hubAccess = hubSearch ? 'online' : 'offline';
  return rest;
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
  ) {
    this.env = fromEnv(env);
    this.load();
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    try {
      const raw = JSON.parse(readFileSync(this.file, 'utf8')) as { values?: unknown };
      const parsed = settingsSchema.partial().safeParse(migrateValues(raw.values ?? {}));
      if (parsed.success) this.user = parsed.data;
      else throw new Error(parsed.error.message);
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
    return { values: this.get(), sources, secrets: this.secrets.status() };
  }

  update(patch: SettingsPatch): SettingsView {
    const next: Record<string, unknown> = { ...this.user };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else next[key] = key === 'ollamaHost' ? normalizeOllamaHost(String(value)) : value;
    }
    this.user = settingsSchema.partial().parse(next);
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
