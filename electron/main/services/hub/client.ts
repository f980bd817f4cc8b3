import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '@shared/errors';
import type { HubFreshness } from '@shared/contract/hub';
import { writeFileAtomic } from '../fs/atomic-write';
import { MAX_BACKOFF_MS, withRetry } from '../http/retry';
import { timeoutFetch } from '../http/timeout-fetch';
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
  /** Waits between attempts; injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** The key-bound fetch: it alone puts the token on requests (net/bound-fetch.ts). */
  fetch: typeof fetch;
  now?: () => number;
}

interface CacheEntry {
  url: string;
  etag?: string;
  fetchedAt: string;
  link?: string;
  body: unknown;
}

export interface HubAnswer {
  body: unknown;
  /** The `Link` header, for pagination. */
  link?: string;
  freshness: HubFreshness;
}

/** A text body capped in size (the cap keeps a 5 MB README from being read whole). */
export interface CappedText {
  text: string;
  truncated: boolean;
  /** The file's full size, from Content-Length, when the Hub sent it. */
  size?: number;
}

async function readJson(res: Response): Promise<unknown> {
  return res.json();
}

async function readCappedText(res: Response, maxBytes: number): Promise<CappedText> {
  const length = Number(res.headers.get('content-length') ?? NaN);
  const size = Number.isFinite(length) ? length : undefined;
  const reader = res.body?.getReader();
  if (!reader) return { text: '', truncated: false, size };
  const chunks: Uint8Array[] = [];
  let got = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    got += value.byteLength;
    if (got > maxBytes) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  let bytes = Buffer.concat(chunks);
  if (truncated) {
    bytes = bytes.subarray(0, maxBytes);
    const nl = bytes.lastIndexOf(10);
    if (nl > 0) bytes = bytes.subarray(0, nl + 1);
  }
  // A multi-byte character cut at the cap decodes to U+FFFD rather than failing.
  return { text: new TextDecoder('utf-8').decode(bytes), truncated, size: size ?? (truncated ? undefined : got) };
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

  constructor(private readonly opts: HubClientOptions) {
    this.fetch = timeoutFetch(opts.timeoutMs ?? 15_000, opts.fetch);
    this.sleep = opts.sleep ?? defaultSleep;
    this.now = opts.now ?? Date.now;
  }

  get host(): string {
    return this.opts.endpoint().replace(/\/+$/, '');
  }

  private cacheFile(url: string, authed: boolean): string {
    const key = createHash('sha256')
      .update(`${authed ? 'auth' : 'anon'} ${url}`)
      .digest('hex');
    return join(this.opts.cacheDir, `${key}.json`);
  }

  private readCache(file: string): CacheEntry | undefined {
    if (!existsSync(file)) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
    } catch {
      return undefined;
    }
  }

  private fromCache(entry: CacheEntry, source: HubFreshness['source'], reason?: string): HubAnswer {
    const freshness: HubFreshness = { source, fetchedAt: entry.fetchedAt };
    if (reason) freshness.reason = reason;
    return { body: entry.body, link: entry.link, freshness };
  }

  /** The cached answer for a path, without any network. */
  cached(pathAndQuery: string): HubAnswer | undefined {
    const url = this.host + pathAndQuery;
    const authed = this.opts.authed();
    const entry = this.readCache(this.cacheFile(url, authed)) ?? this.readCache(this.cacheFile(url, !authed));
    return entry ? this.fromCache(entry, 'cache', 'Live Hub access is off.') : undefined;
  }

  /** GETs a JSON answer. */
  get(pathAndQuery: string, what: string, signal?: AbortSignal): Promise<HubAnswer> {
    return this.request(pathAndQuery, what, 'application/json', readJson, signal);
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
      (res) => readCappedText(res, maxBytes),
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
    const file = this.cacheFile(url, authed);
    const entry = this.readCache(file);
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
            this.writeCache(file, fresh);
            return this.fromCache(fresh, 'revalidated');
          }
          if (res.ok) {
            let body: unknown;
            try {
              body = await read(res);
            } catch {
              // A cut or garbled answer: like a Hub in trouble, a copy seen before is served instead (below).
              throw new AppError('upstream', `The Hub at ${host} sent an unreadable answer for the ${what}.`);
            }
            const fresh: CacheEntry = { url, fetchedAt: new Date(this.now()).toISOString(), body };
            const etag = res.headers.get('etag');
            const link = res.headers.get('link');
            if (etag) fresh.etag = etag;
            if (link) fresh.link = link;
            this.writeCache(file, fresh);
            return { body, link: link ?? undefined, freshness: { source: 'network', fetchedAt: fresh.fetchedAt } };
          }
          const retryAfter = parseRetryAfter(res.headers.get('retry-after'), this.now());
          const text = await res.text().catch(() => '');
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
    if (fallback) return this.fromCache(entry, 'cache', err.message);
    throw err;
  }

  private writeCache(file: string, entry: CacheEntry): void {
    try {
      writeFileAtomic(file, JSON.stringify(entry));
    } catch (e) {
      this.opts.log.warn('hub cache not written', { reason: String(e) });
    }
  }
}
