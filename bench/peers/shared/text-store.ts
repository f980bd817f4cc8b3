/** The message as an external store (the way zustand feeds React in chat apps): React re-renders when it changes. */
export function textStore() {
  let state = { text: '', done: false };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    subscribe(fn: () => void) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    render(text: string, done: boolean) {
      if (text === state.text && done === state.done) return;
      state = { text, done };
      for (const fn of listeners) fn();
    },
  };
}
