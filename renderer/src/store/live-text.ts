/**
 * The text of replies being streamed, outside React: a delta is appended to a string and listeners are told
 * once per batch (the stream delivers at most one batch per frame), so no component re-renders per token.
 */
export class LiveText {
  content = '';
  thinking = '';
  private listeners = new Set<() => void>();
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  notify(): void {
    for (const fn of this.listeners) fn();
  }
}
/** Per streaming message id. */
export const live = new Map<string, LiveText>();
export function liveText(id: string): LiveText {
  let t = live.get(id);
  if (!t) live.set(id, (t = new LiveText()));
  return t;
}
