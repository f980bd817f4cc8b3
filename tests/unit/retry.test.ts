import { describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { MAX_ATTEMPTS, backoffMs, withRetry } from '../../electron/main/services/http/retry';

class HttpFailure extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** An attempt that fails with each status in turn, then succeeds; waits are recorded, not slept. */
function scripted(statuses: number[]) {
  const waits: number[] = [];
  let calls = 0;
  const run = (opts: Partial<Parameters<typeof withRetry>[1]> = {}) =>
    withRetry(
      async () => {
        const s = statuses[calls++];
        if (s !== undefined) throw new HttpFailure(s);
        return 'ok';
      },
      {
        statusOf: (e) => (e instanceof HttpFailure ? e.status : undefined),
        sleep: async (ms) => void waits.push(ms),
        ...opts,
      },
    );
  return { run, waits, calls: () => calls };
}

describe('the one retry policy', () => {
  it('waits 1 s, 2 s, 4 s… capped at 8 s, or what Retry-After says', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(backoffMs(1, { baseMs: 5 })).toBe(5);
    expect(backoffMs(3, { retryAfterMs: 1500 })).toBe(1500);
  });

  it('retries 429/502/503/504 up to three attempts in all, then gives the last failure', async () => {
    for (const status of [429, 502, 503, 504]) {
      const s = scripted([status, status, status, status]);
      await expect(s.run()).rejects.toMatchObject({ status });
      expect(s.calls()).toBe(MAX_ATTEMPTS);
      expect(s.waits).toEqual([1000, 2000]);
    }
    const recovers = scripted([503]);
    await expect(recovers.run()).resolves.toBe('ok');
    expect(recovers.calls()).toBe(2);
  });

  it('fails at once on other statuses, on failures without a status, and when the caller says no', async () => {
    for (const status of [400, 401, 403, 404, 500]) {
      const s = scripted([status]);
      await expect(s.run()).rejects.toMatchObject({ status });
      expect(s.calls()).toBe(1);
    }
    const noStatus = scripted([]);
    await expect(
      withRetry(
        async () => {
          throw new Error('socket hang up');
        },
        { statusOf: () => undefined },
      ),
    ).rejects.toThrow('socket hang up');
    expect(noStatus.waits).toEqual([]);
    const refused = scripted([503, 503]);
    await expect(refused.run({ retryable: () => false })).rejects.toMatchObject({ status: 503 });
    expect(refused.calls()).toBe(1);
  });

  it('uses the Retry-After the caller passes on, and tells each retry', async () => {
    const seen: string[] = [];
    const s = scripted([429, 429]);
    await s.run({
      retryable: () => ({ retryAfterMs: 3000 }),
      onRetry: ({ attempt, waitMs, status }) => seen.push(`${attempt}:${status}:${waitMs}`),
    });
    expect(seen).toEqual(['1:429:3000', '2:429:3000']);
  });

  it('a Stop during the (one-minute) wait ends it at once as aborted', async () => {
    const ctl = new AbortController();
    const run = withRetry(
      async () => {
        throw new HttpFailure(503);
      },
      { statusOf: (e) => (e as HttpFailure).status, baseMs: 60_000, signal: ctl.signal },
    );
    setTimeout(() => ctl.abort(), 5);
    await expect(run).rejects.toBeInstanceOf(AppError);
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
  });
});
