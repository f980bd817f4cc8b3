import { existsSync, readFileSync } from 'node:fs';
import { secretNames, type SecretName, type SecretStatus } from '@shared/contract/settings';
import { secretEnv } from '@shared/environment';
import { writeFileAtomic } from './fs/atomic-write';

/** Holds the user's secrets in main. Only `status()` ever leaves main; values stay here. */
export interface SecretStore {
  get(name: SecretName): string | undefined;
  set(name: SecretName, value: string): void;
  clear(name: SecretName): void;
  status(): SecretStatus[];
  /** Every value currently held: the logger masks them. */
  values(): string[];
  storage(): SecretStorage;
  readonly keepWithoutKeyring: boolean;
}

/** The OS keychain-backed encryption the desktop app provides (Electron safeStorage). */
export interface Cipher {
  available(): boolean;
  encrypt(plain: string): Uint8Array;
  decrypt(data: Uint8Array): string;
  /**
   * Linux: safeStorage's selected backend. `basic_text` means no keyring was found and "encryption" uses a
   * hard-coded key: anyone who can read the file can read the secrets.
   */
  backend?(): string;
}

/** How a secret set in the app is kept: OS keychain, a file that is only obfuscated, or memory only. */
type SecretStorage = 'keychain' | 'basic_text' | 'none';

/** The flag in secrets.json that records the user's choice to keep secrets on disk without a keyring. */
const WEAK_OPT_IN = '$keepWithoutKeyring';

type Env = Record<string, string | undefined>;
type Source = SecretStatus['source'];

function last4(v: string): string {
  return v.length >= 12 ? v.slice(-4) : '';
}

/**
 * Secrets from the environment, with values set in the app kept in memory for this session:
 * the web mode and the CLI never write a secret to disk in plain text.
 * With a cipher (desktop), values set in the app are stored encrypted and survive restarts.
 */
export class SecretStoreImpl implements SecretStore {
  private session = new Map<SecretName, string | null>();
  private stored = new Map<SecretName, string>();
  private weakOptIn = false;

  constructor(
    private readonly env: Env,
    private readonly persist?: { file: string; cipher: Cipher },
  ) {
    if (persist && existsSync(persist.file)) {
      try {
        const raw = JSON.parse(readFileSync(persist.file, 'utf8')) as Record<string, string>;
        this.weakOptIn = raw[WEAK_OPT_IN] === 'yes';
        for (const name of secretNames) {
          const enc = raw[name];
          if (typeof enc === 'string') this.stored.set(name, persist.cipher.decrypt(Buffer.from(enc, 'base64')));
        }
      } catch {
        // An unreadable store (another OS user, a changed keychain) behaves as empty; it is rewritten on the next set.
        this.stored.clear();
      }
    }
  }

  storage(): SecretStorage {
    if (!this.persist || !this.persist.cipher.available()) return 'none';
    return this.persist.cipher.backend?.() === 'basic_text' ? 'basic_text' : 'keychain';
  }

  /** Whether the user chose to keep secrets on disk although no keyring protects them. */
  get keepWithoutKeyring(): boolean {
    return this.weakOptIn;
  }

  private persistent(): boolean {
    const storage = this.storage();
    return storage === 'keychain' || (storage === 'basic_text' && this.weakOptIn);
  }

  /**
   * Without a keyring, secrets set in the app last for the session only unless the user opts in. Opting out moves
   * what was stored into this session and removes it from disk.
   */
  setKeepWithoutKeyring(keep: boolean): void {
    if (this.storage() !== 'basic_text') return;
    this.weakOptIn = keep;
    if (keep) {
      for (const [name, v] of this.session) if (v) this.stored.set(name, v);
      for (const name of this.stored.keys()) this.session.delete(name);
    } else {
      for (const [name, v] of this.stored) this.session.set(name, v);
      this.stored.clear();
    }
    this.save();
  }

  private resolve(name: SecretName): { value?: string; source: Source } {
    if (this.session.has(name)) {
      const v = this.session.get(name);
      return v ? { value: v, source: 'session' } : { source: 'none' };
    }
    const stored = this.stored.get(name);
    if (stored) return { value: stored, source: 'stored' };
    const fromEnv = this.env[secretEnv[name].name]?.trim();
    if (fromEnv) return { value: fromEnv, source: 'env' };
    return { source: 'none' };
  }

  get(name: SecretName): string | undefined {
    return this.resolve(name).value;
  }

  set(name: SecretName, value: string): void {
    if (this.persistent()) {
      this.stored.set(name, value);
      this.session.delete(name);
      this.save();
    } else {
      this.session.set(name, value);
    }
  }

  clear(name: SecretName): void {
    if (this.stored.delete(name)) this.save();
    // Hides an environment value too, for this session.
    this.session.set(name, null);
  }

  status(): SecretStatus[] {
    return secretNames.map((name) => {
      const { value, source } = this.resolve(name);
      const s: SecretStatus = {
        name,
        set: !!value,
        source,
        persistent: this.persistent(),
        envVar: secretEnv[name].name,
      };
      if (value && last4(value)) s.last4 = last4(value);
      return s;
    });
  }

  values(): string[] {
    const out: string[] = [];
    for (const name of secretNames) {
      const v = this.get(name);
      if (v) out.push(v);
    }
    return out;
  }

  private save(): void {
    if (!this.persist) return;
    const out: Record<string, string> = {};
    if (this.weakOptIn) out[WEAK_OPT_IN] = 'yes';
    for (const [name, v] of this.stored) out[name] = Buffer.from(this.persist.cipher.encrypt(v)).toString('base64');
    writeFileAtomic(this.persist.file, JSON.stringify(out));
  }
}
