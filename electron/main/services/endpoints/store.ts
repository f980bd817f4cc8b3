import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { endpointPresetSchema, MAX_CONTEXT_LENGTH, type EndpointPreset } from '@shared/contract/endpoints';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';
import type { Cipher } from '../secrets';

/** An endpoint as main keeps it: the key (when set) with the origin it was entered for. */
export interface StoredEndpoint {
  id: string;
  name: string;
  preset: EndpointPreset;
  baseUrl: string;
  key?: { value: string; origin: string };
}

interface StoreOptions {
  /** endpoints.json: names and addresses, never a key. */
  file: string;
  /** endpoint-keys.json: each key and its origin, sealed with the cipher. */
  keysFile: string;
  cipher?: Cipher;
  /** Whether keys set in the app may go to disk now (the same rule as the other secrets: keychain, or opted in). */
  persistent: () => boolean;
  log: Logger;
}

const ID_RE = /^e_[a-z0-9]+$/;
/** Models per endpoint with a context length the user gave (a server lists at most MAX_MODELS). */
const MAX_CONTEXTS = 1000;

/**
 * The user's endpoints, kept in `<data dir>/endpoints.json` (written atomically). Their keys follow the rule of the
 * other secrets: sealed with the desktop cipher in a file of their own when keys may persist, else held for this
 * session only (web mode, CLI).
 */
export class EndpointStore {
  private readonly items = new Map<string, StoredEndpoint>();
  /**
   * The context length the user gave for a model whose server does not say it, by endpoint id and model id. Apart
   * from the endpoints so that those set by HUBDESK_ENDPOINTS (stable ids, not stored) keep theirs too.
   */
  private readonly contexts = new Map<string, Map<string, number>>();

  constructor(private readonly opts: StoreOptions) {
    this.load();
  }

  private load(): void {
    const { file, keysFile, cipher, log } = this.opts;
    try {
      if (existsSync(file)) {
        const raw = JSON.parse(readFileSync(file, 'utf8')) as { endpoints?: unknown; contexts?: unknown };
        for (const e of Array.isArray(raw.endpoints) ? raw.endpoints : []) {
          const o = e as Record<string, unknown>;
          const preset = endpointPresetSchema.safeParse(o.preset);
          if (typeof o.id !== 'string' || !ID_RE.test(o.id) || typeof o.name !== 'string') continue;
          if (typeof o.baseUrl !== 'string' || !preset.success) continue;
          this.items.set(o.id, { id: o.id, name: o.name, preset: preset.data, baseUrl: o.baseUrl });
        }
        this.loadContexts(raw.contexts);
      }
    } catch (e) {
      log.warn('endpoints.json unreadable; starting without endpoints', { reason: String(e) });
    }
    if (!cipher || !existsSync(keysFile)) return;
    try {
      const open = (enc: string) => cipher.decrypt(Buffer.from(enc, 'base64'));
      const raw = JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, { value: string; origin: string }>;
      for (const [id, sealed] of Object.entries(raw)) {
        const item = this.items.get(id);
        if (item) item.key = { value: open(sealed.value), origin: open(sealed.origin) };
      }
    } catch {
      // Unreadable (another keychain): the endpoints ask for their keys again.
      log.warn('endpoint keys unreadable; endpoints start without keys');
    }
  }

  private loadContexts(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return;
    for (const [id, models] of Object.entries(raw as Record<string, unknown>)) {
      if (!ID_RE.test(id) || typeof models !== 'object' || models === null) continue;
      const kept = new Map<string, number>();
      for (const [model, n] of Object.entries(models as Record<string, unknown>).slice(0, MAX_CONTEXTS))
        if (typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= MAX_CONTEXT_LENGTH) kept.set(model, n);
      if (kept.size) this.contexts.set(id, kept);
    }
  }

  /** The context length the user gave for the endpoint's model, if any. */
  context(id: string, model: string): number | undefined {
    return this.contexts.get(id)?.get(model);
  }

  /** Keeps the context length the user gave for a model its server does not say it of. */
  setContext(id: string, model: string, contextLength: number): void {
    const models = this.contexts.get(id) ?? new Map<string, number>();
    models.delete(model);
    models.set(model, contextLength);
    // The oldest go first past the bound.
    while (models.size > MAX_CONTEXTS) models.delete(models.keys().next().value!);
    this.contexts.set(id, models);
    this.save();
  }

  list(): StoredEndpoint[] {
    return [...this.items.values()];
  }

  get(id: string): StoredEndpoint | undefined {
    return this.items.get(id);
  }

  newId(): string {
    let id: string;
    do id = `e_${randomBytes(6).toString('hex')}`;
    while (this.items.has(id));
    return id;
  }

  put(e: StoredEndpoint): void {
    this.items.set(e.id, e);
    this.save();
  }

  remove(id: string): boolean {
    const had = this.items.delete(id);
    this.contexts.delete(id);
    if (had) this.save();
    return had;
  }

  private save(): void {
    const endpoints = this.list().map(({ id, name, preset, baseUrl }) => ({ id, name, preset, baseUrl }));
    const contexts = Object.fromEntries([...this.contexts].map(([id, m]) => [id, Object.fromEntries(m)]));
    writeFileAtomic(this.opts.file, JSON.stringify({ endpoints, contexts }, null, 2));
    this.saveKeys();
  }

  /** Writes the keys where they may be kept now: after the user changed whether secrets stay without a keyring too. */
  saveKeys(): void {
    const { keysFile, cipher } = this.opts;
    if (!cipher || !this.opts.persistent()) {
      // Keys are for this session only: none may stay on disk from when they could persist.
      if (existsSync(keysFile)) rmSync(keysFile, { force: true });
      return;
    }
    const seal = (s: string) => Buffer.from(cipher.encrypt(s)).toString('base64');
    const out: Record<string, { value: string; origin: string }> = {};
    for (const e of this.items.values())
      if (e.key) out[e.id] = { value: seal(e.key.value), origin: seal(e.key.origin) };
    writeFileAtomic(keysFile, JSON.stringify(out));
  }
}
