/**
 * The text of replies being streamed, outside React: a delta is appended to a string and listeners are told once
 * per animation frame, in it, however many batches arrived since the last one. So no component re-renders per
 * token, a frame draws the text once, and what listeners write to the DOM is laid out and painted in that frame.
 */
export class LiveText {
  content = '';
  thinking = '';
  private listeners = new Set<() => void>();
  private frame = 0;
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  notify(): void {
    this.frame ||= requestAnimationFrame(() => {
      this.frame = 0;
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
