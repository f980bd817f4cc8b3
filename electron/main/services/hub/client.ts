import { AppError } from '@shared/errors';
import { MAX_BACKOFF_MS, withRetry } from '../http/retry';
import { readJsonCapped } from '../http/read-json-capped';
import { timeoutFetch } from '../http/timeout-fetch';
import { HubAnswerCache, type CacheEntry, type HubAnswer } from './answer-cache';
import { readCappedText } from '../http/read-text-capped';
import { bodyError, ERROR_MAX_BYTES } from './body-read';
import { HUB_BODY_TIMEOUT_MS } from './caps';
import type { Logger } from '../log';
import { hubNetworkError, hubStatusError, parseRetryAfter, type HubRequestContext } from './errors';

/** A status answer, kept with its Retry-After for the retry policy. */
class StatusFailure extends Error {
  constructor(
    readonly error: AppError,
    readonly status: number,
    readonly retryAfter: number | undefined,
  ) {
    super(error.message);
  }
}

interface HubClientOptions {
  endpoint: () => string;
  /** Whether a token goes with requests to the endpoint (its answers are cached apart). */
  authed: () => boolean;
  /** Where answers are kept with their ETag. */
  cacheDir: string;
  log: Logger;
  /** How long to wait for response headers. */
  timeoutMs?: number;
  /** How long to wait for a whole JSON body once headers came (default HUB_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
  /** Waits between attempts; injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** The key-bound fetch: it alone puts the token on requests (net/bound-fetch.ts). */
  fetch: typeof fetch;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * GETs JSON from the Hub: the token where it is bound, timeouts, retries on 429/502/503/504, and an on-disk cache
 * revalidated with ETag / If-None-Match. When the Hub cannot be reached, a cached answer is returned
 * and marked as such.
 */
export class HubClient {
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly cache: HubAnswerCache;

  constructor(private readonly opts: HubClientOptions) {
    this.cache = new HubAnswerCache(opts.cacheDir, opts.log);
    this.fetch = timeoutFetch(opts.timeoutMs ?? 15_000, opts.fetch);
    this.sleep = opts.sleep ?? defaultSleep;
    this.now = opts.now ?? Date.now;
  }

  get host(): string {
    return this.opts.endpoint().replace(/\/+$/, '');
  }

  /** The cached answer for a path, without any network. */
  cached(pathAndQuery: string): HubAnswer | undefined {
    const url = this.host + pathAndQuery;
    const authed = this.opts.authed();
    const entry = this.cache.read(this.cache.file(url, authed)) ?? this.cache.read(this.cache.file(url, !authed));
    return entry ? this.cache.answer(entry, 'cache', 'Live Hub access is off.') : undefined;
  }

  /** GETs a JSON answer, reading at most `maxBytes` of it (caps.ts: one per kind of answer). */
  get(pathAndQuery: string, what: string, maxBytes: number, signal?: AbortSignal): Promise<HubAnswer> {
    const timeoutMs = this.opts.bodyTimeoutMs ?? HUB_BODY_TIMEOUT_MS;
    return this.request(
      pathAndQuery,
      what,
      'application/json',
      (res) => readJsonCapped(res, { maxBytes, timeoutMs }),
      signal,
    );
  }

  /**
   * GETs a text file (a README) without reading more than `maxBytes` of it: a larger file is cut at the last
   * line break before the cap and marked truncated. Cached and revalidated like the JSON answers.
   */
  getText(pathAndQuery: string, what: string, maxBytes: number, signal?: AbortSignal): Promise<HubAnswer> {
    return this.request(
      pathAndQuery,
      what,
      'text/plain, text/markdown, */*',
      (res) => readCappedText(res, maxBytes, this.opts.bodyTimeoutMs ?? HUB_BODY_TIMEOUT_MS),
      signal,
    );
  }

  private async request(
    pathAndQuery: string,
    what: string,
    accept: string,
    read: (res: Response) => Promise<unknown>,
    signal?: AbortSignal,
  ): Promise<HubAnswer> {
    const host = this.host;
    const url = host + pathAndQuery;
    const authed = this.opts.authed();
    const ctx: HubRequestContext = { host, what, tokenSet: authed };
    const file = this.cache.file(url, authed);
    const entry = this.cache.read(file);
    const headers: Record<string, string> = { Accept: accept };
    if (entry?.etag) headers['If-None-Match'] = entry.etag;

    let failure: AppError;
    try {
      return await withRetry(
        async () => {
          let res: Response;
          try {
            res = await this.fetch(url, { headers, signal });
          } catch (e) {
            throw hubNetworkError(e, ctx);
          }
          if (res.status === 304 && entry) {
            await res.body?.cancel();
            const fresh: CacheEntry = { ...entry, fetchedAt: new Date(this.now()).toISOString() };
            this.cache.write(file, fresh);
            return this.cache.answer(fresh, 'revalidated');
          }
          if (res.ok) {
            let body: unknown;
            try {
              body = await read(res);
            } catch (e) {
              // A cut, garbled, endless or stalled answer: like a Hub in trouble, a copy seen before is served
              // instead (below).
              throw bodyError(e, host, what);
            }
            const fresh: CacheEntry = { url, fetchedAt: new Date(this.now()).toISOString(), body };
            const etag = res.headers.get('etag');
            const link = res.headers.get('link');
            if (etag) fresh.etag = etag;
            if (link) fresh.link = link;
            this.cache.write(file, fresh);
            return { body, link: link ?? undefined, freshness: { source: 'network', fetchedAt: fresh.fetchedAt } };
          }
          const retryAfter = parseRetryAfter(res.headers.get('retry-after'), this.now());
          // An error's words are short: a refusal streamed without end is cut, not read whole.
          const bodyTimeout = this.opts.bodyTimeoutMs ?? HUB_BODY_TIMEOUT_MS;
          const text = await readCappedText(res, ERROR_MAX_BYTES, bodyTimeout).then(
            (t) => t.text,
            () => '',
          );
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: the text is kept for the message.
          }
          const error = hubStatusError(res.status, body, ctx, retryAfter, res.headers.get('x-error-code') ?? undefined);
          throw new StatusFailure(error, res.status, retryAfter);
        },
        {
          statusOf: (e) => (e instanceof StatusFailure ? e.status : undefined),
          // A Retry-After longer than the cap is not waited out here: the message tells the user when to retry.
          retryable: (e) => {
            const after = (e as StatusFailure).retryAfter;
            return after === undefined ? true : after <= MAX_BACKOFF_MS && { retryAfterMs: after };
          },
          onRetry: ({ status, attempt, waitMs }) =>
            this.opts.log.warn('hub request retried', { status, attempt, waitMs, what }),
          sleep: async (ms) => {
            await this.sleep(ms);
            if (signal?.aborted) throw new AppError('aborted', 'Cancelled.');
          },
        },
      );
    } catch (e) {
      if (e instanceof StatusFailure) failure = e.error;
      else if (e instanceof AppError) failure = e;
      else throw e;
      if (failure.code === 'aborted') throw failure;
    }
    const err = failure;
    // No answer at all, or a Hub in trouble: a copy seen before is better than an error.
    const fallback =
      entry &&
      (err.code === 'unavailable' || err.code === 'timeout' || err.code === 'rate_limited' || err.code === 'upstream');
    if (fallback) return this.cache.answer(entry, 'cache', err.message);
    throw err;
  }
}
