import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { normalizeOrigin } from '@shared/server-origin';
import type { Cipher } from '../secrets';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';

/** The built-in engine's own settings, in `<data dir>/local.json`: folders, keep-alive and the local server. */
const configSchema = z.object({
  /** Folders the user added, scanned for GGUFs. */
  folders: z.array(z.string()).default([]),
  /** Found folders (HF cache, LM Studio) the user chose to forget: not scanned, their files untouched. */
  hidden: z.array(z.string()).default([]),
  keepAliveMinutes: z.number().int().min(0).default(10),
  /** CPU threads per context; 0 lets llama.cpp choose (one per performance core). */
  threads: z.number().int().min(0).max(256).default(0),
  server: z
    .object({
      enabled: z.boolean().default(false),
      port: z.number().int().default(18_080),
      /** Listen on 0.0.0.0 rather than 127.0.0.1 only. */
      lan: z.boolean().default(false),
      /** Browser origins granted CORS, each as `normalizeOrigin` writes it; an entry that is not one is dropped. */
      corsOrigins: z
        .array(z.string())
        .default([])
        .transform((list) => list.filter((o) => normalizeOrigin(o) === o)),
      /** The request log keeps request bodies (without the key) and reply texts. */
      keepBodies: z.boolean().default(false),
    })
    .default({ enabled: false, port: 18_080, lan: false, corsOrigins: [], keepBodies: false }),
  /** The local server's key, sealed by the OS keychain; absent without one (then held for this run only). */
  sealedKey: z.string().optional(),
  /**
   * A key was set without a keychain to keep it (the web mode): it was lost when HubDesk stopped, so a server left on
   * says why it did not start again. Never the key itself.
   */
  keyForRunOnly: z.boolean().optional(),
});
export type LocalConfig = z.infer<typeof configSchema>;

export interface LocalConfigOptions {
  file: string;
  log: Logger;
  cipher?: Cipher;
  /** HUBDESK_LOCAL_SERVER_KEY: wins over a stored key and is never written. */
  envKey?: string;
}

/** Reads and writes local.json; a damaged file is logged and replaced by defaults on the next change. */
export class LocalConfigStore {
  private value: LocalConfig;
  private sessionKey: string | undefined;

  constructor(private readonly opts: LocalConfigOptions) {
    this.value = this.read();
  }

  private read(): LocalConfig {
    try {
      if (existsSync(this.opts.file)) return configSchema.parse(JSON.parse(readFileSync(this.opts.file, 'utf8')));
    } catch (e) {
      this.opts.log.warn('local.json unreadable; using defaults', { reason: String(e) });
    }
    return configSchema.parse({});
  }

  get(): LocalConfig {
    return this.value;
  }

  update(patch: Partial<Omit<LocalConfig, 'sealedKey'>>): LocalConfig {
    this.value = { ...this.value, ...patch };
    this.write();
    return this.value;
  }

  private write(): void {
    writeFileAtomic(this.opts.file, JSON.stringify(this.value, null, 2));
  }

  /** The local server's key, where it comes from, and whether it outlives this run (`kept`). */
  key(): { value?: string; source: 'none' | 'env' | 'stored'; kept?: boolean } {
    if (this.opts.envKey) return { value: this.opts.envKey, source: 'env', kept: true };
    if (this.sessionKey) return { value: this.sessionKey, source: 'stored', kept: !!this.value.sealedKey };
    const sealed = this.value.sealedKey;
    if (sealed && this.opts.cipher?.available()) {
      try {
        return { value: this.opts.cipher.decrypt(Buffer.from(sealed, 'base64')), source: 'stored', kept: true };
      } catch {
        this.opts.log.warn('local server key unreadable; set it again');
      }
    }
    return { source: 'none' };
  }

  /** Stores a key (sealed when the keychain is there, else for this run only), or forgets it with null. */
  setKey(key: string | null): void {
    this.sessionKey = key ?? undefined;
    const sealedKey =
      key && this.opts.cipher?.available() ? Buffer.from(this.opts.cipher.encrypt(key)).toString('base64') : undefined;
    this.value = { ...this.value, sealedKey, keyForRunOnly: !!key && !sealedKey };
    this.write();
  }

  /** A key set in an earlier run without a keychain, now gone: the reason a server left on is not running. */
  keyLostAtRestart(): boolean {
    return !!this.value.keyForRunOnly && !this.sessionKey && !this.opts.envKey;
  }
}
