/** Speed over a sliding window of a few seconds, so a stall shows quickly and one burst does not. */
export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];

  constructor(
    private readonly windowMs = 5000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records the running total of bytes received. */
  add(total: number): void {
    const t = this.now();
    const last = this.samples.at(-1);
    // One sample per 100 ms is plenty for a 5 s window.
    if (last && t - last.t < 100) last.bytes = total;
    else this.samples.push({ t, bytes: total });
    while (this.samples.length > 2 && t - this.samples[0].t > this.windowMs) this.samples.shift();
  }

  reset(): void {
    this.samples = [];
  }

  bytesPerSecond(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.t - first.t < 200) return 0;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.t - first.t));
  }
}
