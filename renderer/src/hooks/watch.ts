import type { Input, StreamEvent, StreamName } from '@shared/contract';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';

/** How long a lost subscription waits before it listens again. */
const RETRY_MS = 3000;

/**
 * Listens to a subscription (`watch()` in the contract: main sends a snapshot at once and on each change): `onLast`
 * gets the latest snapshot of each batch, `onError` a lost connection, after which it listens again after a pause.
 * Returns the cleanup for an effect.
 */
export function listenWatch<K extends StreamName>(
  name: K,
  input: Input<K>,
  onLast: (event: StreamEvent<K>) => void,
  onError: (e: AppErrorShape) => void,
): () => void {
  let handle: { cancel(): void } | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let live = true;
  const listen = () => {
    const h = api.stream(name, input, (events) => {
      const last = events.at(-1);
      if (last !== undefined) onLast(last);
    });
    handle = h;
    h.result.catch((e: AppErrorShape) => {
      if (!live || e.code === 'aborted') return;
      onError(e);
      retry = setTimeout(listen, RETRY_MS);
    });
  };
  listen();
  return () => {
    live = false;
    handle?.cancel();
    if (retry) clearTimeout(retry);
  };
}
