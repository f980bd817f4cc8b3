import { AppError } from '@shared/errors';

/**
 * `source`'s items until `signal` aborts, when it throws the signal's reason at once. Node's fetch can leave a
 * response body's read pending forever when its request is aborted mid-body (nodejs/node#56917): a loop over the
 * body alone then never ends, and a Stop, Pause or Cancel that waits for it waits forever. The source is closed
 * (`return`) on every exit, without waiting for it to settle.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {}); // raced below, or never looked at once the source ends
  try {
    for (;;) {
      const next = await Promise.race([it.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    it.return?.()?.catch(() => {});
  }
}

/** `p`'s outcome, or a Stop as soon as `signal` aborts: a Stop does not wait for work the server goes on with. */
export function untilStopped<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AppError('aborted', 'Stopped.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AppError('aborted', 'Stopped.'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
