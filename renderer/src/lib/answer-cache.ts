/** An answer a screen already holds: fresh (a call started ahead for this visit) or stale (seen earlier). */
export interface AtHand<T> {
  data: T;
  /** Shown at once, then asked again behind it; a failed revalidation keeps it on screen. */
  stale: boolean;
}

interface Entry {
  /** The last answer (plain JSON data). */
  value?: unknown;
  /** The call on its way: anyone asking meanwhile joins it. */
  pending?: Promise<unknown>;
  /** A call started before the page that shows it (see ahead), until that page claims it. */
  ahead?: { promise: Promise<unknown>; arrived: boolean };
}

/** Whether two answers (plain JSON data) are the same. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k as keyof typeof a], b[k as keyof typeof b]));
}

/**
 * A window's answers from main by key (a model's details, a card, a lineage list), in one map: the last answer to
 * each key, the call on its way, and a call started ahead of its page. A page opened again renders the last answer
 * at once and asks behind it (stale-while-revalidate, as going back to a page on huggingface.co does). Up to `max`
 * keys are kept, the most recently answered; a key with a call on its way or unclaimed is never dropped.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly max: number,
    /** How long a call started ahead waits for its page before it is forgotten. */
    private readonly aheadMs = 10_000,
  ) {}

  /** The last answer to `key`, if any. */
  last<T>(key: string): T | undefined {
    return this.entries.get(key)?.value as T | undefined;
  }

  /**
   * Asks with `fn` and keeps the answer; a call for a key already on its way joins it (a page's load and the call
   * started on its address change may come in either order). An answer equal to the last one is that same object,
   * so a page revalidating what it shows does not render again.
   */
  ask<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const entry = this.entry(key);
    if (entry.pending) return entry.pending as Promise<T>;
    const call = fn()
      .then((v) => {
        const kept = entry.value !== undefined && sameJson(entry.value, v) ? (entry.value as T) : v;
        entry.value = kept;
        this.touch(key, entry);
        return kept;
      })
      .finally(() => {
        if (entry.pending === call) entry.pending = undefined;
        this.forgetIfEmpty(key, entry);
      });
    entry.pending = call;
    return call;
  }

  /**
   * Starts the call for `key` before the page that shows it mounts; one until it is claimed (take, atHand).
   * Returns that call.
   */
  ahead(key: string, fn: () => Promise<unknown>): Promise<unknown> {
    const entry = this.entry(key);
    if (entry.ahead) return entry.ahead.promise;
    const ahead = { promise: this.ask(key, fn), arrived: false };
    ahead.promise.then(
      () => (ahead.arrived = true),
      () => undefined,
    );
    entry.ahead = ahead;
    setTimeout(() => {
      if (entry.ahead !== ahead) return;
      entry.ahead = undefined;
      this.forgetIfEmpty(key, entry);
    }, this.aheadMs);
    return ahead.promise;
  }

  /** The call started ahead for `key`, once (a reload asks again). */
  take<T>(key: string): Promise<T> | undefined {
    const entry = this.entries.get(key);
    const ahead = entry?.ahead;
    if (!entry || !ahead) return undefined;
    entry.ahead = undefined;
    this.forgetIfEmpty(key, entry);
    return ahead.promise as Promise<T>;
  }

  /**
   * An answer for `key` to render in a page's first frame: the call started ahead if it has arrived (fresh, claimed
   * once), else the last answer (stale: the page asks again behind it).
   */
  atHand<T>(key: string): AtHand<T> | undefined {
    const entry = this.entries.get(key);
    if (entry?.value === undefined) return undefined;
    const fresh = entry.ahead?.arrived === true;
    if (fresh) entry.ahead = undefined;
    return { data: entry.value as T, stale: !fresh };
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = {}));
    return entry;
  }

  /** Marks `key` as the most recently answered and drops the oldest answers beyond `max`. */
  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    let over = this.entries.size - this.max;
    for (const [k, e] of this.entries) {
      if (over <= 0 || k === key) break;
      if (e.pending || e.ahead) continue;
      this.entries.delete(k);
      over--;
    }
  }

  private forgetIfEmpty(key: string, entry: Entry): void {
    if (entry.value === undefined && !entry.pending && !entry.ahead && this.entries.get(key) === entry)
      this.entries.delete(key);
  }
}
