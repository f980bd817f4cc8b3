/**
 * The text of replies being streamed, outside React: a delta is appended to a string and listeners are told once
 * per animation frame, in it, however many batches arrived since the last one. So no component re-renders per
 * token, a frame draws the text once, and what listeners write to the DOM is laid out and painted in that frame.
 */
export class LiveText {
  content = '';
  thinking = '';
  /** The text as the last frame handed it to the listeners: what the page has painted. */
  private shown = { content: '', thinking: '' };
  private stopped = false;
  private listeners = new Set<() => void>();
  private frame = 0;
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  /** Text that arrived; none is taken once stopped. */
  add(content?: string, thinking?: string): void {
    if (this.stopped) return;
    if (content) this.content += content;
    if (thinking) this.thinking += thinking;
  }
  /**
   * Stop: the text goes back to what the page painted (deltas that came after the last frame were never seen) and
   * takes no more. Returns its lengths, which main keeps.
   */
  stop(): { content: number; thinking: number } {
    this.stopped = true;
    this.content = this.shown.content;
    this.thinking = this.shown.thinking;
    return { content: this.content.length, thinking: this.thinking.length };
  }
  notify(): void {
    this.frame ||= requestAnimationFrame(() => {
      this.frame = 0;
      this.shown = { content: this.content, thinking: this.thinking };
      for (const fn of this.listeners) fn();
    });
  }
}
/** Per streaming message id. */
export const live = new Map<string, LiveText>();
export function liveText(id: string): LiveText {
  let t = live.get(id);
  if (!t) live.set(id, (t = new LiveText()));
  return t;
}
