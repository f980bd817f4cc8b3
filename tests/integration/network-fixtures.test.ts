import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch, ProxyAgent, type Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startConnectProxy, type ConnectProxy } from '../fixtures/connect-proxy';
import { FixtureServer } from '../fixtures/http-fixture';
import { makeTestCa, type LeafCert, type TestCa } from '../fixtures/tls-ca';
import { startTlsFront, type TlsFront } from '../fixtures/tls-front';
import { closedPort } from '../helpers/ports';

// The company-network fixtures, proved with undici's own fetch as the app uses it. The failure cases pin the error
// shapes undici 7 gives (TypeError 'fetch failed' and its causes), which the app's messages are built on.

interface Cause {
  name?: string;
  message?: string;
  code?: unknown;
}

/** The error and each `cause` below it. */
function causes(e: unknown): Cause[] {
  const out: Cause[] = [];
  for (let c = e as (Cause & { cause?: unknown }) | undefined; c; c = c.cause as typeof c)
    out.push({ name: c.name, message: c.message, code: c.code });
  return out;
}

async function failure(p: Promise<unknown>): Promise<Cause[]> {
  try {
    await p;
  } catch (e) {
    return causes(e);
  }
  throw new Error('expected a failure');
}

const BIG = Buffer.alloc(1 << 20, 7);
const basic = (auth: string) => `Basic ${Buffer.from(auth).toString('base64')}`;
const fetchFailed = { name: 'TypeError', message: 'fetch failed' };

describe('network fixtures: test CA, TLS front, CONNECT proxy', () => {
  let dir: string;
  let ca: TestCa;
  let origin: FixtureServer;
  let proxy: ConnectProxy;
  const fronts: Record<string, TlsFront> = {};
  const leaves: Record<string, LeafCert> = {};
  const dispatchers: Dispatcher[] = [];
  const use = <D extends Dispatcher>(d: D) => (dispatchers.push(d), d);
  const via = (opts: Partial<ProxyAgent.Options> = {}) =>
    use(new ProxyAgent({ uri: proxy.url, requestTls: { ca: ca.caPem }, ...opts }));
  /** Maps hub.test:443 to one of the TLS fronts. */
  const serve = (front: string) =>
    proxy.set({ hosts: { ...hosts(), 'hub.test:443': `127.0.0.1:${fronts[front].port}` } });
  const hosts = () => ({ 'hub.test:443': `127.0.0.1:${fronts.good.port}`, 'hub.test:80': origin.url.slice(7) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netfx-'));
    ca = makeTestCa(dir);
    const good = ca.leaf({ names: ['hub.test'] });
    Object.assign(leaves, {
      good,
      // As an SSL-inspecting proxy sends it: the leaf and the CA that signed it.
      chained: { ...good, cert: good.cert + ca.caPem },
      self: ca.selfSigned(['hub.test']),
      other: ca.leaf({ names: ['other.test'] }),
      expired: ca.leaf({ names: ['hub.test'], expired: true }),
    });
    origin = await new FixtureServer(({ req, res, url, body }) => {
      if (url.pathname === '/big') return void res.writeHead(200, { 'content-length': `${BIG.length}` }).end(BIG);
      res.writeHead(url.pathname === '/echo' ? 201 : 200, { 'content-type': 'application/json', 'x-seen': 'origin' });
      res.end(JSON.stringify({ method: req.method, path: url.pathname, host: req.headers.host, body }));
    }).start();
    for (const [name, leaf] of Object.entries(leaves))
      fronts[name] = await startTlsFront({ target: origin.url, ...leaf });
    proxy = await startConnectProxy();
  });
  afterAll(async () => {
    await proxy?.stop();
    for (const f of Object.values(fronts)) await f.stop();
    await origin?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    proxy.set({ hosts: hosts(), auth: undefined, refuse: false, cutAfterBytes: undefined });
    proxy.log.length = 0;
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.destroy()));
  });

  it('issues leaves from the CA, expired ones and self-signed ones', () => {
    const caCert = new X509Certificate(ca.caPem);
    expect(caCert.ca).toBe(true);
    const good = new X509Certificate(leaves.good.cert);
    expect(good.verify(caCert.publicKey)).toBe(true);
    expect([good.checkHost('hub.test'), good.checkHost('other.test')]).toEqual(['hub.test', undefined]);
    const expired = new X509Certificate(leaves.expired.cert);
    expect(expired.verify(caCert.publicKey)).toBe(true);
    expect(Date.parse(expired.validTo)).toBeLessThan(Date.now());
    expect(new X509Certificate(leaves.self.cert).verify(caCert.publicKey)).toBe(false);
  });

  it('hub.test exists only through the proxy: a tunnel to the TLS front, logged; directly ENOTFOUND', async () => {
    const res = await fetch('https://hub.test/x', { dispatcher: via() });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ method: 'GET', path: '/x', host: 'hub.test' });
    expect(proxy.log).toEqual([{ method: 'CONNECT', target: 'hub.test:443', status: 200, authorized: true }]);

    const direct = use(new Agent({ connect: { ca: ca.caPem } }));
    const [top, cause] = await failure(fetch('https://hub.test/x', { dispatcher: direct }));
    expect(top).toMatchObject(fetchFailed);
    // ENOTFOUND from a resolver that answers; EAI_AGAIN on a machine with no DNS server at all.
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(cause.code);
    expect(proxy.log).toHaveLength(1);
  });

  it('the TLS front forwards method, body, status and headers unchanged, and counts requests', async () => {
    const before = fronts.good.requests;
    const direct = use(new Agent({ connect: { ca: ca.caPem, servername: 'hub.test' } }));
    const res = await fetch(`${fronts.good.url}/echo?q=1`, {
      dispatcher: direct,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'tls' }),
    });
    expect([res.status, res.headers.get('x-seen')]).toEqual([201, 'origin']);
    expect(await res.json()).toMatchObject({ method: 'POST', path: '/echo', body: { hello: 'tls' } });
    expect(fronts.good.requests).toBe(before + 1);
    expect(origin.requestsTo('/echo').at(-1)?.query.get('q')).toBe('1');
    expect(proxy.log).toEqual([]);
  });

  it('a 127.0.0.1 server: directly the proxy never sees it; through the proxy it is tunneled and logged', async () => {
    const port = origin.url.split(':')[2];
    expect((await fetch(`${origin.url}/x`, { dispatcher: use(new Agent()) })).status).toBe(200);
    expect(proxy.log).toEqual([]);
    expect((await fetch(`${origin.url}/x`, { dispatcher: via() })).status).toBe(200);
    expect(proxy.log).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${port}`, status: 200, authorized: true }]);
  });

  it.each([
    ['a CA not trusted', 'good', false, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'],
    [
      'a CA not trusted, sent in the chain',
      'chained',
      false,
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
    ],
    ['a self-signed leaf', 'self', true, 'DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
    [
      'a name mismatch',
      'other',
      true,
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "Hostname/IP does not match certificate's altnames: Host: hub.test. is not in the cert's altnames: DNS:other.test",
    ],
    ['an expired leaf', 'expired', true, 'CERT_HAS_EXPIRED', 'certificate has expired'],
  ])('through the proxy, %s fails with its code one cause down', async (_, front, trustCa, code, message) => {
    serve(front);
    const before = fronts[front].requests;
    const dispatcher = trustCa ? via() : via({ requestTls: {} });
    const chain = await failure(fetch('https://hub.test/x', { dispatcher }));
    expect(chain).toEqual([
      { ...fetchFailed, code: undefined },
      { name: 'Error', message, code },
    ]);
    expect(proxy.log).toEqual([{ method: 'CONNECT', target: 'hub.test:443', status: 200, authorized: true }]);
    expect(fronts[front].requests).toBe(before);
  });

  const tunnelRefused = (status: number) => [
    { ...fetchFailed, code: undefined },
    { name: 'Error', message: 'Request was cancelled.', code: 0 }, // a DOMException
    { name: 'AbortError', message: `Proxy response (${status}) !== 200 when HTTP Tunneling`, code: 'UND_ERR_ABORTED' },
  ];

  it('407 to CONNECT without credentials; with them in the proxy URL or as a token it passes', async () => {
    proxy.set({ auth: 'alice:s3cr3t' });
    expect(await failure(fetch('https://hub.test/x', { dispatcher: via() }))).toEqual(tunnelRefused(407));
    const inUri = via({ uri: proxy.url.replace('//', '//alice:s3cr3t@') });
    expect((await fetch('https://hub.test/x', { dispatcher: inUri })).status).toBe(200);
    expect((await fetch('https://hub.test/x', { dispatcher: via({ token: basic('alice:s3cr3t') }) })).status).toBe(200);
    expect(proxy.log.map((e) => [e.status, e.authorized])).toEqual([
      [407, false],
      [200, true],
      [200, true],
    ]);
  });

  it('http:// targets: tunneled by default, forwarded with proxyTunnel: false; 407 either way without credentials', async () => {
    expect(await (await fetch('http://hub.test/x', { dispatcher: via() })).json()).toMatchObject({ host: 'hub.test' });
    const plain = via({ proxyTunnel: false });
    expect(await (await fetch('http://hub.test/x?a=b', { dispatcher: plain })).json()).toMatchObject({ path: '/x' });
    expect(proxy.log).toEqual([
      { method: 'CONNECT', target: 'hub.test:80', status: 200, authorized: true },
      { method: 'GET', target: 'http://hub.test/x?a=b', status: 200, authorized: true },
    ]);

    proxy.set({ auth: 'alice:s3cr3t' });
    expect(await failure(fetch('http://hub.test/x', { dispatcher: via({ proxyTunnel: false }) }))).toEqual([
      { ...fetchFailed, code: undefined },
      { name: 'InvalidArgumentError', message: 'Proxy Authentication Required (407)', code: 'UND_ERR_INVALID_ARG' },
    ]);
    expect(await failure(fetch('http://hub.test/x', { dispatcher: via() }))).toEqual(tunnelRefused(407));
    const authed = via({ proxyTunnel: false, token: basic('alice:s3cr3t') });
    const res = await fetch('http://hub.test/echo', { dispatcher: authed, method: 'POST', body: 'streamed' });
    expect([res.status, await res.json()]).toEqual([201, expect.objectContaining({ body: 'streamed' })]);
    // The proxy's credentials stop at the proxy.
    expect(origin.requestsTo('/echo').at(-1)?.headers['proxy-authorization']).toBeUndefined();
  });

  it('403 from a refusing proxy: CONNECT fails, a forwarded request gets the 403 as its response', async () => {
    proxy.set({ refuse: true });
    expect(await failure(fetch('https://hub.test/x', { dispatcher: via() }))).toEqual(tunnelRefused(403));
    expect((await fetch('http://hub.test/x', { dispatcher: via({ proxyTunnel: false }) })).status).toBe(403);
    expect(proxy.log.map((e) => e.status)).toEqual([403, 403]);
  });

  it('502 for a name the proxy does not know', async () => {
    expect(await failure(fetch('https://nowhere.test/x', { dispatcher: via() }))).toEqual(tunnelRefused(502));
    expect((await fetch('http://nowhere.test/x', { dispatcher: via({ proxyTunnel: false }) })).status).toBe(502);
  });

  it('a proxy not listening: ECONNREFUSED one cause down', async () => {
    const port = await closedPort();
    const chain = await failure(fetch('https://hub.test/x', { dispatcher: via({ uri: `http://127.0.0.1:${port}` }) }));
    expect(chain).toEqual([
      { ...fetchFailed, code: undefined },
      { name: 'Error', message: `connect ECONNREFUSED 127.0.0.1:${port}`, code: 'ECONNREFUSED' },
    ]);
  });

  it('a tunnel cut mid-download: the headers arrive, the body read throws; the next tunnel is whole', async () => {
    proxy.set({ cutAfterBytes: 64 * 1024 });
    const res = await fetch('https://hub.test/big', { dispatcher: via() });
    expect(res.status).toBe(200);
    expect(await failure(res.arrayBuffer())).toEqual([
      { name: 'TypeError', message: 'terminated', code: undefined },
      { name: 'SocketError', message: 'other side closed', code: 'UND_ERR_SOCKET' },
    ]);
    const again = await fetch('https://hub.test/big', { dispatcher: via() });
    expect((await again.arrayBuffer()).byteLength).toBe(BIG.length);
  });
});
