/**
 * Anthropic's `stop_sequences`, matched in the reply's text as it streams: its answer names the sequence that stopped
 * the reply (`stop_reason: "stop_sequence"`, `stop_sequence`), which the engine's own stop does not tell. Text that may
 * be the start of a sequence is held back until the next piece settles it, so a sequence split across pieces is never
 * sent; the sequence itself is never sent either (as Anthropic leaves it out).
 */
export class StopSequences {
  private held = '';
  /** The sequence that stopped the reply, once one has. */
  matched: string | undefined;

  constructor(private readonly sequences: readonly string[]) {}

  /** The text that may be sent now: up to the first sequence once one matches, and nothing after it. */
  push(text: string): string {
    if (this.matched !== undefined) return '';
    if (!this.sequences.length) return text;
    const buf = this.held + text;
    let at = -1;
    for (const s of this.sequences) {
      const i = buf.indexOf(s);
      if (i >= 0 && (at < 0 || i < at)) [at, this.matched] = [i, s];
    }
    if (at >= 0) {
      this.held = '';
      return buf.slice(0, at);
    }
    // The longest end of the text that begins a sequence waits for the next piece.
    let keep = 0;
    for (const s of this.sequences)
      for (let k = Math.min(s.length - 1, buf.length); k > keep; k--)
        if (buf.endsWith(s.slice(0, k))) {
          keep = k;
          break;
        }
    this.held = buf.slice(buf.length - keep);
    return buf.slice(0, buf.length - keep);
  }

  /** What was held back, once the reply has ended without a sequence. */
  flush(): string {
    const rest = this.matched === undefined ? this.held : '';
    this.held = '';
    return rest;
  }
}
