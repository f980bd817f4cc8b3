/** How far back the embedding speed looks: long enough to smooth batches, short enough to follow a change. */
const WINDOW_MS = 5_000;

/** Chunks embedded per second for each document being embedded, over the last few seconds. */
export class Rates {
  private readonly samples = new Map<string, { t: number; n: number }[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** `chunks` embedded by a call that began at `since` (the first call's start is where the speed counts from). */
  add(doc: string, chunks: number, since: number): void {
    const t = this.now();
    const list = this.samples.get(doc) ?? [{ t: since, n: 0 }];
    list.push({ t, n: list[list.length - 1].n + chunks });
    while (list.length > 2 && list[1].t < t - WINDOW_MS) list.shift();
    this.samples.set(doc, list);
  }

  /** Chunks per second, and the time left for `remaining` chunks at that speed. */
  of(doc: string, remaining: number): { chunksPerSecond: number; etaMs: number } | undefined {
    const list = this.samples.get(doc);
    if (!list || list.length < 2) return undefined;
    const first = list[0];
    const last = list[list.length - 1];
    const seconds = Math.max(last.t - first.t, 1) / 1000;
    const chunksPerSecond = (last.n - first.n) / seconds;
    if (!(chunksPerSecond > 0)) return undefined;
    return { chunksPerSecond, etaMs: Math.round((Math.max(0, remaining) / chunksPerSecond) * 1000) };
  }

  forget(doc: string): void {
    this.samples.delete(doc);
  }
}
