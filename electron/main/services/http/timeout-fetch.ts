/** Raised when a server does not answer (send headers) within the allowed time. */
export class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`No answer within ${Math.round(ms / 1000)} s`);
    this.name = 'TimeoutError';
  }
}

/**
 * A fetch whose wait for the response headers is bounded. The caller's signal still cancels
 * the request and its body; once headers arrive, the body may stream for as long as it needs.
 */
export function timeoutFetch(ms: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init = {}) => {
    const ctrl = new AbortController();
    const outer = init.signal;
    const onAbort = () => ctrl.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => ctrl.abort(new TimeoutError(ms)), ms);
    try {
      return await base(input, { ...init, signal: ctrl.signal });
    } catch (e) {
      if (ctrl.signal.reason instanceof TimeoutError) throw ctrl.signal.reason;
      throw e;
    } finally {
      clearTimeout(timer);
    }
  };
}

// Read with the rest of a failed fetch's cause in network-cause.ts; re-exported for the services that import it here.
export { networkErrorCode } from './network-cause';
