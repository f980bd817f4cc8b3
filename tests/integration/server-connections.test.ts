import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';

/**
 * Issue #38 F7: half-open requests (headers never finished, no key) must not starve the local server or the web
 * mode's server. Each caps its connections, closes the oldest connection not yet admitted to make room, and closes
 * a request whose headers do not arrive in time (small limits here, so the test is quick).
 */
const HALF_OPEN = 1100;
const LIMITS = { maxConnections: 64, headersTimeoutMs: 600 };
/** An answer in well under the 90 s the flood used to cost (generous: the flood shares this process and its cores). */
const PROMPT_MS = 2000;

/** `n` connections that each send the start of a request and then nothing; resolves once all are open. */
async function halfOpen(port: number, n: number): Promise<{ closed: () => number; destroy: () => void }> {
  let closed = 0;
  const sockets = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof connect>>((resolve) => {
          const s = connect(port, '127.0.0.1');
          s.on('error', () => {});
          s.once('close', () => closed++);
          s.once('connect', () => {
            s.write(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
            resolve(s);
          });
          // A connection the server closed before it was seen as open still counts as settled.
          s.once('close', () => resolve(s));
        }),
    ),
  );
  return { closed: () => closed, destroy: () => sockets.forEach((s) => s.destroy()) };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return check();
}

describe('servers with a cap on connections and a header timeout (issue #38 F7)', () => {
  let s: LocalServerApp;

  beforeAll(async () => {
    s = await startLocalServerApp({}, { connections: LIMITS });
    await s.app.client.call('local.server.set', { enabled: true, port: s.port, key: KEY });
  });
  afterAll(() => s?.close());

  it('the local server answers a client with the key while 1,100 half-open requests come in, and closes them', async () => {
    const flood = await halfOpen(s.port, HALF_OPEN);
    try {
      const started = Date.now();
      const res = await rawRequest(s.port, '/v1/models');
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(PROMPT_MS);
      // All but the cap's worth went at once; the rest within the header timeout.
      expect(await until(() => flood.closed() === HALF_OPEN, LIMITS.headersTimeoutMs + 1500)).toBe(true);
    } finally {
      flood.destroy();
    }
  });

  it('the web mode answers the page while 1,100 half-open requests come in, and closes them', async () => {
    const flood = await halfOpen(s.app.server.port, HALF_OPEN);
    try {
      const started = Date.now();
      const { models } = await s.app.client.call('local.models', {});
      expect(models).toEqual([]);
      expect(Date.now() - started).toBeLessThan(PROMPT_MS);
      expect(await until(() => flood.closed() === HALF_OPEN, LIMITS.headersTimeoutMs + 1500)).toBe(true);
    } finally {
      flood.destroy();
    }
  });

  it('a connection that sends nothing at all is closed after the header timeout', async () => {
    for (const port of [s.port, s.app.server.port]) {
      const sock = connect(port, '127.0.0.1');
      sock.on('error', () => {});
      let closed = false;
      sock.once('close', () => (closed = true));
      expect(await until(() => closed, LIMITS.headersTimeoutMs + 1500)).toBe(true);
    }
  });
});
