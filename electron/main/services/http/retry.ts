import { AppError } from '@shared/errors';

/**
 * The one retry policy of the app (the Hub client and the inference router): statuses that mean "not now" —
 * rate limited or a gateway in trouble — are tried up to three times, waiting 1 s, 2 s… (doubling, capped at 8 s)
 * or what the server's Retry-After says. Anything else fails at once.
 */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
export const MAX_ATTEMPTS = 3;
const BASE_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 8_000;

/** The wait before attempt `attempt + 1`: the server's Retry-After when given, else doubling from `baseMs`, capped. */
export function backoffMs(attempt: number, opts: { baseMs?: number; retryAfterMs?: number } = {}): number {
  if (opts.retryAfterMs !== undefined) return opts.retryAfterMs;
  return Math.min(MAX_BACKOFF_MS, (opts.baseMs ?? BASE_BACKOFF_MS) * 2 ** (attempt - 1));
}

/** Waits `ms`, or rejects with `aborted` as soon as `signal` fires. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((ok, fail) => {
    if (signal?.aborted) return fail(new AppError('aborted', 'Stopped.'));
    const onAbort = () => {
      clearTimeout(t);
      fail(new AppError('aborted', 'Stopped.'));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      ok();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface RetryOptions {
  /**
   * Whether a failure may be tried again, given the HTTP status it carries: `false` to fail at once, or the
   * server's Retry-After (ms) when it sent one. Statuses outside RETRY_STATUSES never reach it.
   */
  retryable?: (e: unknown, status: number) => boolean | { retryAfterMs: number };
  /** The HTTP status a failure carries, if any. */
  statusOf: (e: unknown) => number | undefined;
  /** Told before each wait (e.g. to log it, or to show "Retrying…"). */
  onRetry?: (info: { attempt: number; waitMs: number; status: number; error: unknown }) => void;
  baseMs?: number;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Runs `attempt` until it succeeds, fails with a status not worth retrying, or MAX_ATTEMPTS are spent. */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const sleep = opts.sleep ?? abortableSleep;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      if (opts.signal?.aborted) throw new AppError('aborted', 'Stopped.');
      const status = opts.statusOf(e);
      if (status === undefined || !RETRY_STATUSES.has(status) || n >= MAX_ATTEMPTS) throw e;
      const verdict = opts.retryable ? opts.retryable(e, status) : true;
      if (verdict === false) throw e;
      const waitMs = backoffMs(n, {
        baseMs: opts.baseMs,
        retryAfterMs: typeof verdict === 'object' ? verdict.retryAfterMs : undefined,
      });
      opts.onRetry?.({ attempt: n, waitMs, status, error: e });
      await sleep(waitMs, opts.signal);
      if (opts.signal?.aborted) throw new AppError('aborted', 'Stopped.');
    }
  }
}
