import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { McpConfigError, McpConfigView } from '@shared/contract/mcp';
import { AppError } from '@shared/errors';
import { writeFileAtomic } from '../fs/atomic-write';
import type { Logger } from '../log';
import { EMPTY_CONFIG, parseConfig, secretKey, serverView, type McpServerConfig, type ParsedConfig } from './config';
import { lineColumn, pathKey } from './json-positions';
import { secretTarget, targetChangedMessage, type SecretKind } from './secret-binding';
import { isMask, maskSecret, type McpSecrets, type StoredSecret } from './secrets';

interface SecretSlot {
  server: string;
  kind: SecretKind;
  name: string;
  raw: string;
  /** What a value here is sent to (secretTarget). */
  target: string;
  start: number;
  end: number;
}

/** Every secret-bearing string of a parsed config: where it is in the text and which stored value it names. */
function secretSlots(parsed: ParsedConfig, text: string): SecretSlot[] {
  const root = parsed.json?.value as Record<string, unknown> | undefined;
  const key = root && 'mcpServers' in root ? 'mcpServers' : 'servers';
  const out: SecretSlot[] = [];
  for (const s of parsed.servers)
    for (const kind of ['env', 'headers'] as const)
      for (const [name, raw] of Object.entries(s[kind])) {
        const span = parsed.json?.spans.get(pathKey([key, s.name, kind, name]));
        if (span && text[span.start] === '"')
          out.push({ server: s.name, kind, name, raw, target: secretTarget(s, kind), ...span });
      }
  return out;
}

const keyOf = (slot: SecretSlot) => secretKey(slot.server, slot.kind, slot.name);
const pathOf = (slot: SecretSlot) => ['mcpServers', slot.server, slot.kind, slot.name];

function splice(text: string, edits: { start: number; end: number; value: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + JSON.stringify(e.value) + out.slice(e.end);
  return out;
}

/**
 * mcp.json in the data dir: parsed, validated, its secrets kept in McpSecrets and written as masks,
 * and reloaded when the file changes on disk.
 */
export class McpConfigStore {
  private text = EMPTY_CONFIG;
  private parsed: ParsedConfig = { servers: [], errors: [] };
  /** The servers last read without errors, with their real secret values: a broken edit keeps them running. */
  private good: McpServerConfig[] = [];
  private missing: McpConfigError[] = [];
  /** Values the last load dropped because mcp.json now sends them elsewhere: why, by secret key. */
  private dropped = new Map<string, string>();
  private revision = 0;
  private watcher?: FSWatcher;
  private debounce?: ReturnType<typeof setTimeout>;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly file: string,
    private readonly secrets: McpSecrets,
    private readonly log: Logger,
  ) {
    this.load();
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The servers to run, with their secret values filled in. */
  servers(): McpServerConfig[] {
    return this.good;
  }

  /** The servers of mcp.json not run because a stored value is gone or was entered for something else, and why. */
  blocked(): { server: McpServerConfig; why: string }[] {
    return this.parsed.servers.flatMap((server) => {
      const why = this.missing.find((e) => e.path[1] === server.name)?.message;
      return why ? [{ server, why }] : [];
    });
  }

  view(): McpConfigView {
    return {
      text: this.masked(this.text, this.parsed),
      servers: this.parsed.servers.map(serverView),
      errors: [...this.parsed.errors, ...this.missing],
      saved: true,
      persistentSecrets: this.secrets.persistent(),
      revision: this.revision,
    };
  }

  /** Validates and writes the text; with errors nothing is written and they come back with the text. */
  save(text: string): McpConfigView {
    const parsed = parseConfig(text);
    const errors = [...parsed.errors];
    const next = new Map<string, Required<StoredSecret>>();
    for (const slot of secretSlots(parsed, text)) {
      // A value typed here is new, and is for what this text sends it to.
      if (!isMask(slot.raw)) {
        next.set(keyOf(slot), { value: slot.raw, target: slot.target });
        continue;
      }
      const stored = this.secrets.get(keyOf(slot));
      const problem = !stored
        ? `${slot.kind}.${slot.name} of "${slot.server}": no stored value for this mask; paste the value again`
        : stored.target !== slot.target
          ? targetChangedMessage(slot, stored.target, slot.target)
          : undefined;
      if (problem) errors.push({ message: problem, ...lineColumn(text, slot.start), path: pathOf(slot) });
      else next.set(keyOf(slot), { value: stored!.value, target: slot.target });
    }
    if (errors.length) {
      return { ...this.view(), text: this.masked(text, parsed), errors, saved: false, servers: [] };
    }
    this.dropped.clear();
    this.secrets.replace(next);
    const onDisk = this.masked(text, parsed);
    writeFileAtomic(this.file, onDisk);
    this.log.info('mcp config saved', { servers: parsed.servers.length });
    this.apply(onDisk);
    return this.view();
  }

  /** Merges the servers of another host's config file; a name already here is replaced by the imported one. */
  import(text: string): McpConfigView {
    const incoming = parseConfig(text);
    if (incoming.errors.length) {
      const e = incoming.errors[0];
      throw new AppError('invalid_input', `The imported file: line ${e.line}, column ${e.column}: ${e.message}`, {
        details: { errors: incoming.errors },
      });
    }
    if (this.parsed.errors.length)
      throw new AppError('conflict', 'mcp.json has errors: fix or save it before importing another file.');
    const root = incoming.json!.value as Record<string, Record<string, unknown>>;
    const mine = { ...((this.parsed.json?.value as Record<string, unknown>) ?? {}) };
    const current = (mine.mcpServers ?? mine.servers ?? {}) as Record<string, unknown>;
    delete mine.servers;
    const merged = { ...mine, mcpServers: { ...current, ...(root.mcpServers ?? root.servers) } };
    return this.save(JSON.stringify(merged, null, 2) + '\n');
  }

  /** Starts watching the file; edits made elsewhere (another editor, a sync tool) reload it. */
  watch(): void {
    if (this.watcher) return;
    try {
      // The directory, not the file: atomic writes replace the file, and it may not exist yet.
      this.watcher = watch(dirname(this.file), (_event, name) => {
        if (name && name !== basename(this.file)) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => this.reload(), 150);
      });
      this.watcher.on('error', () => this.unwatch());
    } catch (e) {
      this.log.warn('mcp config not watched', { message: (e as Error).message });
    }
  }

  unwatch(): void {
    clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private reload(): void {
    const before = this.text;
    this.load();
    if (this.text !== before) this.log.info('mcp config reloaded from disk');
  }

  private load(): void {
    let text = EMPTY_CONFIG;
    try {
      if (existsSync(this.file)) text = readFileSync(this.file, 'utf8');
    } catch (e) {
      this.log.warn('mcp config unreadable', { message: (e as Error).message });
      return;
    }
    if (text === this.text && this.revision > 0) return;
    // A value written by hand in plain text becomes a stored secret; with a cipher the file is rewritten masked.
    const parsed = parseConfig(text);
    if (!parsed.errors.length) {
      const next = new Map<string, Required<StoredSecret>>();
      let plain = false;
      this.dropped.clear();
      for (const slot of secretSlots(parsed, text)) {
        if (!isMask(slot.raw)) {
          plain = true;
          next.set(keyOf(slot), { value: slot.raw, target: slot.target });
          continue;
        }
        const stored = this.secrets.get(keyOf(slot));
        if (!stored) continue;
        // An edit on disk that sends a value elsewhere drops it; one stored before targets were kept was entered
        // for what the file runs it with now.
        if (stored.target === undefined || stored.target === slot.target)
          next.set(keyOf(slot), { value: stored.value, target: slot.target });
        else this.dropped.set(keyOf(slot), targetChangedMessage(slot, stored.target, slot.target));
      }
      this.secrets.replace(next);
      if (plain && this.secrets.persistent()) {
        text = this.masked(text, parsed);
        writeFileAtomic(this.file, text);
      }
    }
    this.apply(text);
  }

  private apply(text: string): void {
    this.text = text;
    this.parsed = parseConfig(text);
    this.missing = [];
    if (!this.parsed.errors.length) {
      const slots = secretSlots(this.parsed, text);
      const broken = new Set<string>();
      for (const slot of slots) {
        if (!isMask(slot.raw) || this.secrets.get(keyOf(slot)) !== undefined) continue;
        broken.add(slot.server);
        this.missing.push({
          message:
            this.dropped.get(keyOf(slot)) ??
            `${slot.kind}.${slot.name} of "${slot.server}": the stored value is gone (another machine or keychain); paste it again`,
          ...lineColumn(text, slot.start),
          path: pathOf(slot),
        });
      }
      this.good = this.parsed.servers
        .filter((s) => !broken.has(s.name))
        .map((s) => ({ ...s, env: this.resolve(s, 'env'), headers: this.resolve(s, 'headers') }));
    }
    this.revision++;
    for (const fn of this.listeners) fn();
  }

  private resolve(s: McpServerConfig, kind: SecretKind): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(s[kind]))
      out[k] = isMask(v) ? (this.secrets.get(secretKey(s.name, kind, k))?.value ?? '') : v;
    return out;
  }

  private masked(text: string, parsed: ParsedConfig): string {
    const edits = secretSlots(parsed, text)
      .filter((s) => !isMask(s.raw))
      .map((s) => ({ start: s.start, end: s.end, value: maskSecret(s.raw) }));
    return splice(text, edits);
  }
}
