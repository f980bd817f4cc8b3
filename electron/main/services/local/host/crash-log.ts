/** Crashes that stop the retries: this many with the same model and settings… */
const LIMIT = 3;
/** …within this long. */
const WINDOW_MS = 60_000;

/** When the engine host ended unexpectedly, per model and settings: three within a minute stop the restarts. */
export class CrashLog {
  private readonly times = new Map<string, number[]>();

  add(key: string, now = Date.now()): void {
    this.times.set(key, [...this.recent(key, now), now]);
  }

  private recent(key: string, now: number): number[] {
    return (this.times.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  }

  /** Whether loading with these settings again is refused (it would likely crash again). */
  refusal(key: string, now = Date.now()): boolean {
    return this.recent(key, now).length >= LIMIT;
  }
}
