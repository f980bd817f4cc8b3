/** One figure of the benchmark table, as written to bench/results/latest.json. */
export interface Figure {
  name: string;
  unit: string;
  value: number;
  baseline?: number;
  /** value / baseline: below 1 means the app is faster than its baseline (for times), or slower (for rates). */
  ratio?: number;
  runs: number;
  min: number;
  max: number;
  /** What "good" is for this figure, shown in the table. */
  target?: string;
  note?: string;
  /** The same figure for each peer renderer, measured in the same run (printed in the peers table). */
  peers?: PeerValue[];
}

/** A peer's median for a figure and HubDesk's value / the peer's (absent when the peer's is 0). */
export interface PeerValue {
  name: string;
  value: number;
  ratio?: number;
  runs: number;
}

export interface BenchContext {
  quick: boolean;
  /** How many repetitions a figure takes in this mode. */
  runs(full: number, quick?: number): number;
  log(msg: string): void;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** A figure from repeated samples (median), optionally against a baseline's samples taken in the same run. */
export function figure(
  name: string,
  unit: string,
  samples: number[],
  opts: { baseline?: number[]; target?: string; note?: string } = {},
): Figure {
  const value = median(samples);
  const f: Figure = { name, unit, value, runs: samples.length, min: Math.min(...samples), max: Math.max(...samples) };
  if (opts.baseline?.length) {
    f.baseline = median(opts.baseline);
    f.ratio = f.baseline === 0 ? undefined : value / f.baseline;
  }
  if (opts.target) f.target = opts.target;
  if (opts.note) f.note = opts.note;
  return f;
}

/** Times `fn` `runs` times (after `warmup` untimed calls) and returns the durations in ms. */
export async function timeRuns(runs: number, fn: () => unknown, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** A figure measured for HubDesk (`samples`) and, in the same run, for each peer: value, peer values and ratios. */
export function peerFigure(
  name: string,
  unit: string,
  samples: number[],
  peers: Record<string, number[]>,
  opts: { target?: string; note?: string } = {},
): Figure {
  const f = figure(name, unit, samples, opts);
  f.peers = Object.entries(peers).map(([peer, xs]) => {
    const value = median(xs);
    return { name: peer, value, runs: xs.length, ratio: value === 0 ? undefined : f.value / value };
  });
  return f;
}
