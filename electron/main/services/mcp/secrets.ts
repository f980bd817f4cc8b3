import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Cipher } from '../secrets';

const MASK = '••••';

/** What the renderer and mcp.json see instead of a secret: "••••" and, for long values, the last four characters. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `${MASK} ${value.slice(-4)}` : MASK;
}

export function isMask(value: string): boolean {
  return value === MASK || (value.startsWith(`${MASK} `) && value.length === MASK.length + 5);
}

/**
 * The values of `env` and `headers` in mcp.json. With a cipher (desktop) they are stored encrypted in
 * mcp-secrets.json and survive restarts; without one (web mode) they last for this session, as the other secrets do.
 */
export class McpSecrets {
  private readonly map = new Map<string, string>();

  constructor(private readonly persist?: { file: string; cipher: Cipher }) {
    if (!persist || !existsSync(persist.file)) return;
    try {
      const raw = JSON.parse(readFileSync(persist.file, 'utf8')) as Record<string, unknown>;
      for (const [k, enc] of Object.entries(raw))
        if (typeof enc === 'string') this.map.set(k, persist.cipher.decrypt(Buffer.from(enc, 'base64')));
    } catch {
      // Unreadable (another keychain): behaves as empty; the servers ask for their values again.
      this.map.clear();
    }
  }

  persistent(): boolean {
    return !!this.persist && this.persist.cipher.available();
  }

  get(key: string): string | undefined {
    return this.map.get(key);
  }

  /** Replaces the whole set at once (one write per config save). */
  replace(entries: Map<string, string>): void {
    const same = entries.size === this.map.size && [...entries].every(([k, v]) => this.map.get(k) === v);
    if (same) return;
    this.map.clear();
    for (const [k, v] of entries) this.map.set(k, v);
    if (!this.persistent()) return;
    const out: Record<string, string> = {};
    for (const [k, v] of this.map) out[k] = Buffer.from(this.persist!.cipher.encrypt(v)).toString('base64');
    writeFileAtomic(this.persist!.file, JSON.stringify(out));
  }

  values(): string[] {
    return [...this.map.values()].filter((v) => v.length >= 4);
  }
}
