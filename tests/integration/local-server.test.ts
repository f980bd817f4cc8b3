import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { closedPort } from '../helpers/ports';
import { startTestApp, tempDir } from '../helpers/app';

// The local OpenAI-compatible server's life and guards: off by default, a key, 127.0.0.1, the Host header, bad
// requests, a port in use, started at launch. The API itself: local-server-api.test.ts.

let t: LocalServerApp;
let app: LocalServerApp['app'];
let port: number;
const raw = (path: string, opts?: Parameters<typeof rawRequest>[2]) => rawRequest(port, path, opts);

beforeAll(async () => {
  t = await startLocalServerApp({ 'tiny-llama.gguf': tinyGguf({ seed: 7 }) });
  ({ app, port } = t);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('local server: off by default, and refusing to start without a key', () => {
  it('is off until turned on', async () => {
    const s = await app.client.call('local.server.status', {});
    expect(s).toMatchObject({ enabled: false, running: false, keySet: false, keySource: 'none' });
    expect(s.url).toBeUndefined();
  });

  it('does not start without a key', async () => {
    const s = await app.client.call('local.server.set', { enabled: true, port });
    expect(s.running).toBe(false);
    expect(s.error?.message).toBe('It needs a key first: generate one, or type one of 16+ characters.');
  });

  it('reports a port in use', async () => {
    const busy: Server = createServer();
    await new Promise<void>((ok) => busy.listen(0, '127.0.0.1', ok));
    const taken = (busy.address() as { port: number }).port;
    try {
      const s = await app.client.call('local.server.set', { enabled: true, port: taken, key: KEY });
      expect(s.running).toBe(false);
      expect(s.error?.message).toBe(`Port ${taken} is in use: choose another.`);
    } finally {
      await new Promise<void>((ok) => busy.close(() => ok()));
    }
  });

  it('starts on 127.0.0.1 with the key, showing only its last four characters', async () => {
    const s = await app.client.call('local.server.set', { enabled: true, port, key: KEY });
    expect(s).toMatchObject({
      enabled: true,
      running: true,
      port,
      url: `http://127.0.0.1:${port}/v1`,
      keySet: true,
      last4: KEY.slice(-4),
      keySource: 'stored',
    });
    expect(s.error).toBeUndefined();
    expect(JSON.stringify(s)).not.toContain(KEY);
  });
});

describe('local server: guards', () => {
  it('answers 401 in llama-server words to a wrong or missing key', async () => {
    for (const key of ['wrong-key-wrong-key-1234', null]) {
      const r = await raw('/v1/models', { key });
      expect(r.status).toBe(401);
      expect(JSON.parse(r.text)).toEqual({
        error: { code: 401, message: 'Invalid API Key', type: 'authentication_error' },
      });
    }
    const wrong = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'not-the-key-at-all!!', maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('answers /health without the key, as llama-server does; nothing else without it', async () => {
    const h = await raw('/health', { key: null });
    expect(h.status).toBe(200);
    expect(JSON.parse(h.text)).toEqual({ status: 'ok' });
    // The Host check still comes first.
    expect((await raw('/health', { key: null, host: `evil.example:${port}` })).status).toBe(403);
    for (const path of ['/v1/models', '/v1/health', '/healthz'])
      expect((await raw(path, { key: null })).status).toBe(401);
  });

  it('refuses n > 1 and log probabilities with a 400 that says what to change, before any model runs', async () => {
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: KEY, maxRetries: 0 });
    const ask = (extra: Record<string, unknown>) =>
      client.chat.completions
        .create({ model: 'nope/missing.gguf', messages: [{ role: 'user', content: 'hi' }], ...extra })
        .then(
          () => {
            throw new Error('expected a refusal');
          },
          (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
        );
    const many = await ask({ n: 3 });
    expect(many).toBeInstanceOf(OpenAI.BadRequestError);
    expect(many.message).toMatch(/n=3 is not offered: this server answers one choice per request \(n=1\)/);
    expect(many.code).toBe('unsupported_value');
    const probs = await ask({ logprobs: true, top_logprobs: 2 });
    expect(probs).toBeInstanceOf(OpenAI.BadRequestError);
    expect(probs.message).toMatch(/Log probabilities are not offered/);
    // n: 1 and logprobs: false are what the server does: the request goes on (here to the missing model's 404).
    expect(await ask({ n: 1, logprobs: false })).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('answers 403 to a foreign Host (DNS rebinding), and sends no CORS headers', async () => {
    const r = await raw('/v1/models', { host: `evil.example:${port}` });
    expect(r.status).toBe(403);
    const ok = await raw('/v1/models', { host: `localhost:${port}` });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.headers).filter((h) => h.startsWith('access-control'))).toEqual([]);
  });

  it('answers 400 to a body that is not JSON, 404 to an unknown path or model', async () => {
    const bad = await raw('/v1/chat/completions', { method: 'POST', body: '{"model":' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    expect((await raw('/v1/nothing')).status).toBe(404);
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: KEY, maxRetries: 0 });
    const err = await client.chat.completions
      .create({ model: 'nope/missing.gguf', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });

  it('refuses a body over 10 MB, and takes a new key without a restart', async () => {
    const big = await raw('/v1/chat/completions', { method: 'POST', body: 'x'.repeat(10 * 1024 * 1024 + 1) }).catch(
      (e: Error) => e,
    );
    // A 413, or the connection closed while the rest was still being sent: never served.
    if (!(big instanceof Error)) expect(big.status).toBe(413);
    const next = 'another-key-for-the-server-42';
    const s = await app.client.call('local.server.set', { key: next });
    expect(s).toMatchObject({ running: true, last4: next.slice(-4) });
    expect((await raw('/v1/models')).status).toBe(401);
    expect((await raw('/v1/models', { key: next })).status).toBe(200);
  });

  it('turns off, and closes its port', async () => {
    const s = await app.client.call('local.server.set', { enabled: false });
    expect(s).toMatchObject({ enabled: false, running: false });
    await expect(raw('/v1/models')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('local server: Generate key and Copy key', () => {
  it('generates a random key that starts the server; Copy key answers it once in the web mode, never in the status', async () => {
    const data = tempDir();
    const p = await closedPort();
    const web = await startTestApp({
      dataDir: data.path,
      local: { home: t.home.path, runtime: { gpu: false, threads: 1 } },
    });
    try {
      await expect(web.client.call('local.server.key.copy', {})).rejects.toMatchObject({
        message: 'The local server has no key yet: generate or type one first.',
      });
      await web.client.call('local.server.set', { enabled: true, port: p });
      const s = await web.client.call('local.server.key.generate', {});
      // The web mode has no keychain: the card says the key lasts until restart.
      expect(s).toMatchObject({ running: true, keySet: true, keySource: 'stored', keyKept: false });
      const { copied, key } = await web.client.call('local.server.key.copy', {});
      expect(copied).toBe(false);
      expect(key).toMatch(/^hd-local-[A-Za-z0-9_-]{32}$/);
      expect(s.last4).toBe(key!.slice(-4));
      expect(JSON.stringify(s)).not.toContain(key);
      const ok = await rawRequest(p, '/v1/models', { key: key! });
      expect(ok.status).toBe(200);
      // Regenerate: a new key, and the old one is refused at once.
      await web.client.call('local.server.key.generate', {});
      const next = (await web.client.call('local.server.key.copy', {})).key!;
      expect(next).not.toBe(key);
      expect((await rawRequest(p, '/v1/models', { key: key! })).status).toBe(401);
      expect((await rawRequest(p, '/v1/models', { key: next })).status).toBe(200);
    } finally {
      await web.close();
      data.remove();
    }
  });

  it('the desktop app puts the key on the clipboard from main: the page gets no key', async () => {
    const data = tempDir();
    const clip: string[] = [];
    const desk = await startTestApp({
      dataDir: data.path,
      local: { home: t.home.path, runtime: { gpu: false, threads: 1 }, clipboard: (text) => clip.push(text) },
    });
    try {
      await desk.client.call('local.server.set', { key: KEY });
      expect(await desk.client.call('local.server.key.copy', {})).toEqual({ copied: true });
      expect(clip).toEqual([KEY]);
    } finally {
      await desk.close();
      data.remove();
    }
  });

  it('refuses to generate over HUBDESK_LOCAL_SERVER_KEY, saying where to change it', async () => {
    const data = tempDir();
    const env = await startTestApp({ dataDir: data.path, env: { HUBDESK_LOCAL_SERVER_KEY: KEY } });
    try {
      await expect(env.client.call('local.server.key.generate', {})).rejects.toMatchObject({
        message: /^HUBDESK_LOCAL_SERVER_KEY sets the key: change that variable/,
      });
    } finally {
      await env.close();
      data.remove();
    }
  });
});

describe('local server at launch', () => {
  it('left on with a key that lasted one run (no keychain): after a restart it says plainly why it is not running', async () => {
    const data = tempDir();
    const launchPort = await closedPort();
    const local = { home: t.home.path, runtime: { gpu: false as const, threads: 1 }, serve: true };
    const first = await startTestApp({ dataDir: data.path, local });
    await first.client.call('local.server.set', { enabled: true, port: launchPort, key: KEY });
    expect(first.services.local.server.status()).toMatchObject({ running: true, keyKept: false });
    await first.services.dispose();
    await first.server.close();
    const again = await startTestApp({ dataDir: data.path, local });
    try {
      await expect.poll(() => again.services.local.server.status().error?.message).toBeDefined();
      const s = await again.client.call('local.server.status', {});
      expect(s).toMatchObject({ enabled: true, running: false, keySet: false });
      expect(s.error?.message).toMatch(
        /^Its key was set on the page without a keychain to keep it, so it ended when HubDesk restarted\..*HUBDESK_LOCAL_SERVER_KEY/,
      );
    } finally {
      await again.close();
      data.remove();
    }
  });

  it('starts with the app when it was left on, with the key from HUBDESK_LOCAL_SERVER_KEY', async () => {
    const data = tempDir();
    const launchPort = await closedPort();
    writeFileSync(join(data.path, 'local.json'), JSON.stringify({ server: { enabled: true, port: launchPort } }));
    const again = await startTestApp({
      dataDir: data.path,
      env: { HUBDESK_LOCAL_SERVER_KEY: KEY },
      local: { home: t.home.path, runtime: { gpu: false, threads: 1 }, serve: true },
    });
    try {
      await expect.poll(() => again.services.local.server.status().running).toBe(true);
      expect(again.services.local.server.status()).toMatchObject({ keySource: 'env', last4: KEY.slice(-4) });
      // Nothing of llama.cpp is started by it: the runtime starts on the first chat or embedding request.
      expect(again.services.local.runtime.status().started).toBe(false);
      const c = new OpenAI({ baseURL: `http://127.0.0.1:${launchPort}/v1`, apiKey: KEY, maxRetries: 0 });
      expect((await c.models.list()).data).toEqual([]);
    } finally {
      await again.close();
      data.remove();
    }
  });

  it('is not started by services built without `serve` (the CLI), even when left on', async () => {
    const data = tempDir();
    writeFileSync(
      join(data.path, 'local.json'),
      JSON.stringify({ server: { enabled: true, port: await closedPort() } }),
    );
    const cli = await startTestApp({ dataDir: data.path, env: { HUBDESK_LOCAL_SERVER_KEY: KEY } });
    try {
      await new Promise((ok) => setTimeout(ok, 50));
      expect(cli.services.local.server.status()).toMatchObject({ enabled: true, running: false });
    } finally {
      await cli.close();
      data.remove();
    }
  });
});
