import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Download } from '@shared/contract/local-downloads';
import type { AppErrorShape } from '@shared/errors';
import { startConnectProxy, type ConnectProxy } from '../fixtures/connect-proxy';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { startOpenAIServer, type OpenAIServerFixture } from '../fixtures/openai-server';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { makeTestCa, type TestCa } from '../fixtures/tls-ca';
import { startTlsFront, type TlsFront } from '../fixtures/tls-front';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/**
 * A company network on 127.0.0.1: the Hub (hub.test) and its CDN (cdn.test) exist only inside a CONNECT proxy, behind
 * TLS certificates from a company CA this machine does not trust until it is given. Every call goes through the app's
 * real layers (client → web transport → router → services → the one network fetch).
 */
const REPO = 'acme/tiny-GGUF';
const FILE = 'tiny-Q8_0.gguf';
const CUT_REPO = 'acme/cut-GGUF';
const gguf = tinyGguf({ seed: 7 });
const other = tinyGguf({ seed: 9 });

let dir: ReturnType<typeof tempDir>;
let ca: TestCa;
let hub: HubFixture;
let hubFront: TlsFront;
let cdnFront: TlsFront;
let proxy: ConnectProxy;
let ollama: OllamaFixture;
let llm: OpenAIServerFixture;
/** Fronts whose certificates are wrong in one way each: another name, expired; and an endpoint behind the proxy. */
let odd: TlsFront[] = [];
const apps: TestApp[] = [];

beforeAll(async () => {
  dir = tempDir('hubdesk-net-');
  ca = makeTestCa(dir.path);
  hub = await startHubFixture({
    models: [
      { id: REPO, library_name: 'gguf', files: { [FILE]: gguf } },
      { id: CUT_REPO, library_name: 'gguf', files: { [FILE]: other } },
    ],
  });
  hubFront = await startTlsFront({ target: hub.url, ...ca.leaf({ names: ['hub.test'] }) });
  cdnFront = await startTlsFront({ target: hub.cdn.url, ...ca.leaf({ names: ['cdn.test'] }) });
  // The Hub's LFS redirects name the CDN by its company-network name.
  hub.cdn.url = 'https://cdn.test';
  llm = await startOpenAIServer('vllm');
  odd = [
    await startTlsFront({ target: hub.url, ...ca.leaf({ names: ['other.test'] }) }),
    await startTlsFront({ target: hub.url, ...ca.leaf({ names: ['old.test'], expired: true }) }),
    await startTlsFront({ target: llm.url, ...ca.leaf({ names: ['llm.test'] }) }),
  ];
  proxy = await startConnectProxy({
    hosts: {
      'hub.test:443': `127.0.0.1:${hubFront.port}`,
      'cdn.test:443': `127.0.0.1:${cdnFront.port}`,
      'wrong.test:443': `127.0.0.1:${odd[0].port}`,
      'old.test:443': `127.0.0.1:${odd[1].port}`,
      'llm.test:443': `127.0.0.1:${odd[2].port}`,
    },
  });
  ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
});

afterAll(async () => {
  await Promise.all([hub.stop(), hubFront.stop(), cdnFront.stop(), proxy.stop(), ollama.stop(), llm.stop()]);
  await Promise.all(odd.map((f) => f.stop()));
  dir.remove();
});

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  proxy.set({ auth: undefined, refuse: undefined, cutAfterBytes: undefined, cutTarget: undefined });
  proxy.log.length = 0;
});

async function app(env: Record<string, string> = {}, trust = true): Promise<TestApp> {
  const a = await startTestApp({
    env: { HF_ENDPOINT: 'https://hub.test', HTTPS_PROXY: proxy.url, OLLAMA_HOST: ollama.url, ...env },
    hub: { consented: true, sleep: async () => {}, timeoutMs: 5_000 },
    local: { home: join(dir.path, `home-${apps.length}`) },
  });
  apps.push(a);
  if (trust) await a.client.call('settings.update', { caFile: ca.caFile });
  return a;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: AppErrorShape) => e,
  );
const tunnels = () => proxy.log.filter((l) => l.method === 'CONNECT').map((l) => l.target);

async function downloaded(a: TestApp, id: string): Promise<Download> {
  for (;;) {
    const d = (await a.client.call('local.downloads', {})).downloads.find((x) => x.id === id)!;
    if (['done', 'failed', 'cancelled'].includes(d.state)) return d;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a company network: proxy and CA', () => {
  it('Hub search, a model page and a verified GGUF download go through the proxy, trusting the CA file', async () => {
    const a = await app();
    const found = await a.client.call('hub.search', { kind: 'models', search: 'tiny' });
    expect(found.results.map((r) => r.id)).toContain(REPO);
    expect((await a.client.call('hub.model', { id: REPO })).model.id).toBe(REPO);
    const started = await a.client.call('local.download.start', { repo: REPO, file: FILE });
    const d = await downloaded(a, started.id);
    expect(d).toMatchObject({ state: 'done', receivedBytes: gguf.length });
    expect(hub.cdn.gets().length).toBeGreaterThan(0);
    expect(tunnels()).toEqual(expect.arrayContaining(['hub.test:443', 'cdn.test:443']));
    const { models } = await a.client.call('local.models', { refresh: true });
    const file = models.find((m) => m.id.endsWith(FILE));
    expect(file).toBeDefined();
  });

  it('loopback never goes through the proxy: the local Ollama and an endpoint on 127.0.0.1 are reached directly', async () => {
    const a = await app({ HTTP_PROXY: proxy.url, ALL_PROXY: proxy.url });
    expect((await a.client.call('ollama.list', {})).models.map((m) => m.name)).toContain('llama3.2:latest');
    const test = await a.client.call('network.test', { url: `${ollama.url}/api/tags` });
    expect(test).toMatchObject({ ok: true, status: 200, route: { via: 'direct', why: 'loopback' } });
    expect(proxy.log).toEqual([]);
  });

  it('NO_PROXY and the bypass list send a host direct; the Hub without the proxy is not found', async () => {
    const a = await app({ NO_PROXY: '.test' });
    const e = await failure(a.client.call('hub.search', { kind: 'models', search: 'tiny' }));
    expect(e.message).toMatch(/Cannot reach the Hub at https:\/\/hub\.test \((ENOTFOUND|EAI_AGAIN)\)/);
    expect(proxy.log).toEqual([]);
    const b = await app();
    await b.client.call('settings.update', { noProxy: 'hub.test:443' });
    expect((await b.client.call('network.status', {})).hub.route).toEqual({ via: 'direct', why: 'bypass' });
  });

  it('an untrusted company CA is named, with where to add it; never "you seem to be offline"', async () => {
    const a = await app({}, false);
    const e = await failure(a.client.call('hub.search', { kind: 'models', search: 'tiny' }));
    expect(e.message).toContain('The certificate for hub.test is signed by an authority this machine does not trust');
    expect(e.message).toContain('Settings → Network → Extra certificates');
    expect(e.message).not.toMatch(/offline/);
    const test = await a.client.call('network.test', {});
    expect(test).toMatchObject({ ok: false, route: { via: 'proxy', proxy: proxy.url, source: 'environment' } });
    expect(test.error?.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('a proxy asking for credentials (407) says where to put them; credentials in the Settings proxy pass, masked', async () => {
    proxy.set({ auth: 'alice:s3cr3t-proxy' });
    const a = await app();
    const e = await failure(a.client.call('hub.model', { id: REPO }));
    expect(e.message).toContain(`The proxy at ${proxy.url} asks for a user name and password (407)`);
    expect(e.message).toContain(`http://user:password@127.0.0.1:${proxy.port}`);
    const withAuth = `http://alice:s3cr3t-proxy@127.0.0.1:${proxy.port}`;
    const view = await a.client.call('secrets.set', { name: 'proxy', value: withAuth });
    expect(JSON.stringify(view)).not.toContain('s3cr3t');
    expect((await a.client.call('hub.model', { id: REPO })).model.id).toBe(REPO);
    const status = await a.client.call('network.status', {});
    expect(status.hub.route).toEqual({
      via: 'proxy',
      proxy: `http://alice:•••@127.0.0.1:${proxy.port}`,
      source: 'settings',
    });
    expect(status.manual).toBe(`http://alice:•••@127.0.0.1:${proxy.port}`);
    expect(JSON.stringify(status)).not.toContain('s3cr3t');
    // Masked in the log like the keys, wherever it would appear.
    a.services.log.warn('a line that quotes it', { proxy: withAuth, password: 's3cr3t-proxy' });
    const logged = readFileSync(join(a.dataDir, 'logs', 'hubdesk.log'), 'utf8');
    expect(logged).toContain('a line that quotes it');
    expect(logged).not.toContain('s3cr3t-proxy');
  });

  it('a certificate for another name, and an expired one, each named for what it is', async () => {
    const a = await app();
    const wrong = await a.client.call('network.test', { url: 'https://wrong.test/' });
    expect(wrong.error?.message).toContain(
      'The certificate presented for wrong.test belongs to another name (ERR_TLS_CERT_ALTNAME_INVALID)',
    );
    const old = await a.client.call('network.test', { url: 'https://old.test/' });
    expect(old.error?.message).toContain('The certificate for old.test has expired (CERT_HAS_EXPIRED)');
  });

  it('the endpoint doctor, a chat reply and a download meet the same words: a proxy asking for credentials', async () => {
    const a = await app();
    const ok = await a.client.call('endpoints.save', {
      name: 'GPU box',
      preset: 'vllm',
      baseUrl: 'https://llm.test/v1',
    });
    expect(ok.report.problem).toBeUndefined();
    expect(tunnels()).toContain('llm.test:443');
    proxy.set({ auth: 'alice:s3cr3t-proxy' });
    const doctor = await a.client.call('endpoints.test', { id: ok.endpoint.id });
    expect(doctor.problem?.message).toContain(`The proxy at ${proxy.url} asks for a user name and password (407)`);
    const started = await a.client
      .call('local.download.start', { repo: REPO, file: FILE })
      .catch((e: AppErrorShape) => e);
    const message =
      'id' in started ? (await downloaded(a, started.id)).error?.message : (started as AppErrorShape).message;
    expect(message).toContain(`The proxy at ${proxy.url} asks for a user name and password (407)`);
  });

  it('a proxy that refuses the site, and one that is down, each in words', async () => {
    proxy.set({ refuse: true });
    const a = await app();
    const refused = await failure(a.client.call('hub.model', { id: REPO }));
    expect(refused.message).toContain(`The proxy at ${proxy.url} refused to connect to hub.test (403)`);
    const down = await app({ HTTPS_PROXY: 'http://127.0.0.1:9' });
    const e = await failure(down.client.call('hub.model', { id: REPO }));
    expect(e.message).toContain('Cannot reach the proxy at http://127.0.0.1:9 (ECONNREFUSED), set by the environment');
  });

  it('bad input is refused in words and loses nothing: a malformed or SOCKS proxy, a file that is not PEM', async () => {
    const a = await app();
    const socks = await failure(a.client.call('secrets.set', { name: 'proxy', value: 'socks5://10.0.0.1:1080' }));
    expect(socks).toMatchObject({ code: 'invalid_input' });
    expect(socks.message).toContain('SOCKS');
    const bad = await failure(a.client.call('secrets.set', { name: 'proxy', value: 'http://alice:pw@[bad' }));
    expect(bad.message).toContain('is not a proxy address');
    expect(bad.message).not.toContain(':pw@');
    const notPem = join(dir.path, 'not.pem');
    writeFileSync(notPem, 'this is a key, not a certificate');
    const pem = await failure(a.client.call('settings.update', { caFile: notPem }));
    expect(pem.message).toContain('holds no PEM certificate');
    const folder = await failure(a.client.call('settings.update', { caFile: dir.path }));
    expect(folder.message).toContain('is not a file');
    // Nothing changed: the CA file kept, no proxy set, the Hub still answers.
    expect((await a.client.call('settings.get', {})).values.caFile).toBe(ca.caFile);
    expect((await a.client.call('hub.model', { id: REPO })).model.id).toBe(REPO);
    const envBad = await app({ HTTPS_PROXY: 'ftp://proxy.corp:21' });
    const e = await failure(envBad.client.call('hub.model', { id: REPO }));
    expect(e.message).toContain('HTTPS_PROXY must start with http:// or https://');
  });

  it('a proxy that closes the tunnel mid-download: the download resumes from its bytes and is verified', async () => {
    const a = await app();
    // The CDN's next tunnel, into the file's bytes.
    proxy.set({ cutAfterBytes: 200_000, cutTarget: 'cdn.test:443' });
    const before = hub.cdn.gets().length;
    const started = await a.client.call('local.download.start', { repo: CUT_REPO, file: FILE });
    const d = await downloaded(a, started.id);
    // Done means its sha256 matched the Hub's.
    expect(d).toMatchObject({ state: 'done', receivedBytes: other.length });
    const ranges = hub.cdn
      .gets()
      .slice(before)
      .map((g) => g.headers.range);
    expect(ranges.some((r) => typeof r === 'string' && /^bytes=[1-9]\d*-$/.test(r))).toBe(true);
  });

  it('Test connection: through the proxy, with the certificate that answered and the time', async () => {
    const a = await app();
    const test = await a.client.call('network.test', {});
    expect(test).toMatchObject({ ok: true, url: 'https://hub.test/', route: { via: 'proxy', source: 'environment' } });
    expect(test.tls).toMatchObject({ issuer: expect.stringContaining('HubDesk test CA') });
    expect(test.tls?.subject).toContain('hub.test');
    expect(test.ms).toBeGreaterThanOrEqual(0);
    const status = await a.client.call('network.status', {});
    expect(status.environment).toEqual([{ name: 'HTTPS_PROXY', value: proxy.url }]);
    expect(status.trust.settingsFile).toEqual({ path: ca.caFile, count: 1 });
  });
});
