/**
 * Settings saves still on their way to main, per conversation: a reply asked for right after a change (a max tokens
 * typed, then Enter in the composer) waits for them, so it is answered with the settings the page shows.
 */
const pending = new Map<string, Promise<unknown>>();

export function trackSave<T>(id: string, save: Promise<T>): Promise<T> {
  const all = Promise.allSettled([pending.get(id), save]);
  pending.set(id, all);
  void all.then(() => {
    if (pending.get(id) === all) pending.delete(id);
  });
  return save;
}

/** Settles once every save of the conversation asked for so far has (whatever its outcome); none pending: undefined. */
export function pendingSaves(id: string): Promise<unknown> | undefined {
  return pending.get(id);
}
