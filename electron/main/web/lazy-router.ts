import { toAppError } from '@shared/errors';
import type { Router, RunningStream, StreamSink } from '../router';

type CallRouter = Pick<Router, 'call' | 'stream'>;

/**
 * A router whose real one is loaded on demand (load() starts it, once): calls wait for it, a stream cancelled before it starts never starts.
 * Lets the web server listen (and serve the page) before the services' heavy libraries are evaluated.
 */
export function lazyRouter(load: () => Promise<CallRouter>): CallRouter {
  return {
    call: async (name, raw) => (await load()).call(name, raw),
    stream: (name: string, raw: unknown, sink: StreamSink): RunningStream => {
      let cancelled = false;
      let running: RunningStream | undefined;
      const done = load().then(
        (r) => {
          if (cancelled) return;
          running = r.stream(name, raw, sink);
          return running.done;
        },
        (e: unknown) => sink({ type: 'error', error: toAppError(e).toJSON() }),
      );
      return {
        cancel: () => {
          cancelled = true;
          running?.cancel();
        },
        done,
      };
    },
  };
}
