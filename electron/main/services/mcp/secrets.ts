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

/** A stored value and what it was entered for (secretTarget); no target: stored before targets were kept. */
export interface StoredSecret {
  value: string;
  target?: string;
}

/**
 * The values of `env` and `headers` in mcp.json, each with what it was entered for. With a cipher (desktop) they are
 * stored encrypted in mcp-secrets.json and survive restarts; without one (web mode) they last for this session, as
 * the other secrets do.
 */
export class McpSecrets {
  private readonly map = new Map<string, StoredSecret>();

  constructor(private readonly persist?: { file: string; cipher: Cipher }) {
    if (!persist || !existsSync(persist.file)) return;
    const open = (enc: string) => persist.cipher.decrypt(Buffer.from(enc, 'base64'));
    try {
      const raw = JSON.parse(readFileSync(persist.file, 'utf8')) as Record<string, unknown>;
      for (const [k, enc] of Object.entries(raw)) {
        // A bare string is a file from before targets were kept: the config store binds it on load.
        if (typeof enc === 'string') this.map.set(k, { value: open(enc) });
        else if (isSealed(enc)) this.map.set(k, { value: open(enc.value), target: open(enc.target) });
      }
    } catch {
      // Unreadable (another keychain): behaves as empty; the servers ask for their values again.
      this.map.clear();
    }
  }

  persistent(): boolean {
    return !!this.persist && this.persist.cipher.available();
  }

  get(key: string): StoredSecret | undefined {
    return this.map.get(key);
  }

  /** Replaces the whole set at once (one write per config save); every value bound to its target. */
  replace(entries: Map<string, Required<StoredSecret>>): void {
    const same =
      entries.size === this.map.size &&
      [...entries].every(([k, e]) => this.map.get(k)?.value === e.value && this.map.get(k)?.target === e.target);
    if (same) return;
    this.map.clear();
    for (const [k, e] of entries) this.map.set(k, e);
    if (!this.persistent()) return;
    const seal = (s: string) => Buffer.from(this.persist!.cipher.encrypt(s)).toString('base64');
    const out: Record<string, { value: string; target: string }> = {};
    for (const [k, e] of entries) out[k] = { value: seal(e.value), target: seal(e.target) };
    writeFileAtomic(this.persist!.file, JSON.stringify(out));
  }

  values(): string[] {
    return [...this.map.values()].map((e) => e.value).filter((v) => v.length >= 4);
  }
}

function isSealed(v: unknown): v is { value: string; target: string } {
  const o = v as Record<string, unknown> | null;
  return typeof o === 'object' && o !== null && typeof o.value === 'string' && typeof o.target === 'string';
}
