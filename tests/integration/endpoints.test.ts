import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '@shared/contract/endpoints';
import { AppError } from '@shared/errors';
import type { Cipher } from '../../electron/main/services/secrets';
import { startHtmlServer, startOpenAIServer, type OpenAIFlavor } from '../fixtures/openai-server';
import { FixtureServer, json } from '../fixtures/http-fixture';
import { closedPort } from '../helpers/ports';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

const KEY = 'sk-endpoint-key-0000aaaa';

let app: TestApp | undefined;
const servers: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const s of servers.splice(0)) await s.stop();
});

async function serve<T extends { stop(): Promise<void> }>(s: Promise<T>): Promise<T> {
  const started = await s;
  servers.push(started);
  return started;
}

async function add(
  baseUrl: string,
  extra: { apiKey?: string | null; preset?: 'llama.cpp' | 'vllm' | 'lmstudio' } = {},
) {
  app ??= await startTestApp();
  return app.client.call('endpoints.save', { name: 'box', preset: extra.preset ?? 'other', baseUrl, ...extra });
}

const check = (r: DoctorReport, name: DoctorReport['checks'][number]['name']) => r.checks.find((c) => c.name === name);

describe('endpoints: adding a server by its address', () => {
  const expected: Record<OpenAIFlavor, { model: string; contextLength: number; extra: object }> = {
    'llama.cpp': { model: 'Qwen3-0.6B-Q8_0.gguf', contextLength: 4096, extra: { trainedContext: 40960 } },
    vllm: { model: 'Qwen/Qwen3-8B', contextLength: 32768, extra: { hubRepo: 'Qwen/Qwen3-8B' } },
    lmstudio: { model: 'qwen/qwen3-8b', contextLength: 32768, extra: { type: 'llm', loaded: true } },
  };
  for (const flavor of ['llama.cpp', 'vllm', 'lmstudio'] as const)
    for (const suffix of ['', '/v1', '/v1/', '/v1/chat/completions'])
      it(`${flavor} at "…${suffix}": the doctor finds /v1, streaming, usage and the context length`, async () => {
        const server = await serve(startOpenAIServer(flavor));
        const { endpoint, report } = await add(server.url + suffix, { preset: flavor });
        expect(report.problem).toBeUndefined();
        expect(report.ok).toBe(true);
        expect(endpoint.baseUrl).toBe(`${server.url}/v1`);
        expect(report.baseUrl).toBe(`${server.url}/v1`);
        expect(endpoint).toMatchObject({ source: 'user', hasKey: false, preset: flavor });
        expect(endpoint.id).toMatch(/^e_[a-z0-9]+$/);
        for (const name of ['reach', 'models', 'chat', 'streaming', 'tools', 'usage', 'context'] as const)
          expect(check(report, name), name).toMatchObject({ ok: true });
        expect(check(report, 'context')!.detail).toContain(expected[flavor].contextLength.toLocaleString('en-US'));
        // The one-token chat: one token, streamed, usage asked for, a tool offered.
        const chat = server.requestsTo('/v1/chat/completions').at(-1)!.body as Record<string, unknown>;
        expect(chat).toMatchObject({ max_tokens: 1, stream: true, stream_options: { include_usage: true } });
        expect(chat.model).toBe(expected[flavor].model);
        expect(Array.isArray(chat.tools)).toBe(true);

        const { models } = await app!.client.call('endpoints.models', { id: endpoint.id });
        expect(models[0]).toMatchObject({
          id: expected[flavor].model,
          contextLength: expected[flavor].contextLength,
          ...expected[flavor].extra,
        });
        expect((await app!.client.call('endpoints.list', {})).endpoints).toEqual([endpoint]);
      });

  it('reasoning is seen when the server streams it; LM Studio embeddings are listed as such and not asked to chat', async () => {
    const server = await serve(
      startOpenAIServer('lmstudio', { script: () => ({ reasoning: ['Think'], content: ['Hi'] }) }),
    );
    server.models.unshift({ id: 'text-embedding-x', contextLength: 2048, type: 'embeddings', loaded: true });
    const { endpoint, report } = await add(server.url, { preset: 'lmstudio' });
    expect(check(report, 'reasoning')).toMatchObject({ ok: true });
    expect(check(report, 'reasoning')!.unseen).toBeUndefined();
    expect((server.requestsTo('/v1/chat/completions')[0].body as { model: string }).model).toBe('qwen/qwen3-8b');
    const { models } = await app!.client.call('endpoints.models', { id: endpoint.id });
    expect(models.find((m) => m.id === 'text-embedding-x')).toMatchObject({ type: 'embeddings' });
  });

  it('no reasoning in the one-token reply is "not seen", told apart from a failing check', async () => {
    const server = await serve(startOpenAIServer('llama.cpp'));
    const { report } = await add(server.url, { preset: 'llama.cpp' });
    expect(report.ok).toBe(true);
    expect(check(report, 'reasoning')).toEqual({
      name: 'reasoning',
      ok: false,
      unseen: true,
      detail: 'Not seen in a one-token reply: a reasoning model may still show it on longer answers.',
    });
    // The checks that did run and pass are not "unseen".
    expect(report.checks.filter((c) => c.unseen).map((c) => c.name)).toEqual(['reasoning']);
  });

  it('a long model list (OpenRouter sends over a megabyte) is read whole', async () => {
    const models = Array.from({ length: 400 }, (_, i) => ({ id: `org/model-${i}`, contextLength: 8192 }));
    const server = await serve(startOpenAIServer('vllm', { models }));
    const { endpoint, report } = await add(server.url);
    expect(report).toMatchObject({ ok: true, models: 400 });
    expect((await app!.client.call('endpoints.models', { id: endpoint.id })).models).toHaveLength(400);
  });

  it('llama.cpp builds without meta.n_ctx: the context length comes from /props', async () => {
    const server = await serve(startOpenAIServer('llama.cpp'));
    const { endpoint } = await add(server.url, { preset: 'llama.cpp' });
    // An older build: its listing carries no meta; /props still says n_ctx.
    server.models[0] = { id: 'old.gguf', contextLength: 8192 };
    const fixture = server as unknown as { modelList(): unknown };
    const list = fixture.modelList.bind(server);
    fixture.modelList = () => {
      const body = list() as { data: Record<string, unknown>[] };
      for (const m of body.data) delete m.meta;
      return body;
    };
    // /props is asked on every listing (it also says whether the model takes images): once for this one.
    const asked = server.requestsTo('/props').length;
    const { models } = await app!.client.call('endpoints.models', { id: endpoint.id });
    expect(models).toEqual([{ id: 'old.gguf', contextLength: 8192, contextSource: 'server' }]);
    expect(server.requestsTo('/props').length).toBe(asked + 1);
  });
});

describe('endpoints: the doctor says what is wrong', () => {
  // The 3 s target is printed, not asserted (no timed assertions); the hung server shows the deadline holds.
  const print = (what: string, r: DoctorReport) => console.log(`doctor verdict for ${what}: ${r.elapsedMs} ms`);

  it('nothing listening: says so, with how to start the server and the port', async () => {
    const port = await closedPort();
    const { endpoint, report } = await add(`http://127.0.0.1:${port}`, { preset: 'llama.cpp' });
    expect(report.ok).toBe(false);
    expect(report.problem).toMatchObject({ code: 'unavailable' });
    expect(report.problem!.message).toBe(
      `Nothing is listening at 127.0.0.1:${port} — start the server (e.g. "llama-server -m model.gguf"), or check the port.`,
    );
    expect(check(report, 'reach')).toMatchObject({ ok: false });
    // Saved all the same, as typed, so Test can be pressed once the server runs.
    expect(endpoint.baseUrl).toBe(`http://127.0.0.1:${port}`);
    print('a dead address', report);
  });

  // Fetch (undici's, as Node's) refuses these before connecting: "fetch failed", caused by "bad port".
  for (const port of [6000, 9])
    it(`port ${port}, a "bad port" of the Fetch standard: said in words, with another port to use`, async () => {
      const { report } = await add(`http://127.0.0.1:${port}/v1`, { preset: 'llama.cpp' });
      expect(report.ok).toBe(false);
      expect(report.problem).toMatchObject({ code: 'invalid_input' });
      expect(report.problem!.message).toBe(
        `Port ${port} is one browsers and Node refuse to call (a "bad port" of the Fetch standard): run the server on another port, such as 8080, and change the address.`,
      );
      expect(report.problem!.message).not.toMatch(/fetch failed/);
      expect(check(report, 'reach')).toMatchObject({ ok: false });
    });

  it('an unknown host', async () => {
    const { report } = await add('http://no-such-host.invalid:8080');
    expect(report.problem).toMatchObject({ code: 'unavailable' });
    expect(report.problem!.message).toMatch(/^No host named no-such-host\.invalid was found — check the spelling/);
    print('an unknown host', report);
  });

  it('TLS: a self-signed certificate, and https to a plain-http server', async () => {
    const dir = tempDir();
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        join(dir.path, 'key.pem'),
        '-out',
        join(dir.path, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const https: Server = createHttpsServer(
      { key: readFileSync(join(dir.path, 'key.pem')), cert: readFileSync(join(dir.path, 'cert.pem')) },
      (_req, res) => res.end('{}'),
    );
    await new Promise<void>((ok) => https.listen(0, '127.0.0.1', ok));
    servers.push({ stop: () => new Promise<void>((ok) => https.close(() => ok())).finally(() => dir.remove()) });
    const { report } = await add(`https://127.0.0.1:${(https.address() as AddressInfo).port}`);
    expect(report.problem!.message).toMatch(
      /^127\.0\.0\.1:\d+ answered with a self-signed certificate this machine does not trust \(DEPTH_ZERO_SELF_SIGNED_CERT\)\. .*Settings → Network → Extra certificates/,
    );

    const plain = await serve(startOpenAIServer('vllm'));
    const { report: wrongScheme } = await add(plain.url.replace('http:', 'https:'));
    expect(wrongScheme.problem!.message).toMatch(/does not answer https — try the address with http:\/\//);
  });

  it('401: no key, then the wrong key (llama.cpp guards only the chat; vLLM every /v1 path)', async () => {
    for (const flavor of ['llama.cpp', 'vllm'] as const) {
      const server = await serve(startOpenAIServer(flavor, { apiKey: KEY }));
      const none = await add(server.url);
      expect(none.report.problem).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(none.report.problem!.message).toMatch(/wants an API key \(401\) and none is set/);
      const wrong = await add(server.url, { apiKey: 'sk-wrong-key-1111bbbb' });
      expect(wrong.report.problem!.message).toMatch(/refused the key \(401\): it is not the one the server expects/);
      const right = await add(server.url, { apiKey: KEY });
      expect(right.report.ok).toBe(true);
      expect(right.endpoint).toMatchObject({ hasKey: true, keyOrigin: server.url });
    }
  });

  it('a server that refuses tools: the chat still works, tools are marked off with its reason', async () => {
    const server = await serve(startOpenAIServer('vllm'));
    server.failWith(400, { body: { error: { message: '"auto" tool choice requires --enable-auto-tool-choice' } } });
    const { report } = await add(server.url);
    expect(report.ok).toBe(true);
    expect(check(report, 'tools')).toEqual({
      name: 'tools',
      ok: false,
      detail:
        'Refused a request offering tools — keep tools off in its chats. The server said: "auto" tool choice requires --enable-auto-tool-choice',
    });
    const chats = server.requestsTo('/v1/chat/completions').map((r) => 'tools' in (r.body as object));
    expect(chats).toEqual([true, false]);
  });

  it('llama.cpp without --jinja refuses tools with a 500: the doctor still passes, tools marked off', async () => {
    const server = await serve(startOpenAIServer('llama.cpp'));
    server.failWith(500, {
      body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } },
    });
    const { report } = await add(server.url, { preset: 'llama.cpp' });
    expect(report.ok).toBe(true);
    expect(check(report, 'tools')).toMatchObject({ ok: false });
    expect(check(report, 'tools')!.detail).toContain('tools param requires --jinja flag');
  });

  it('404 on a wrong path, after trying it with and without /v1', async () => {
    const server = await serve(startOpenAIServer('vllm'));
    const { report } = await add(`${server.url}/api`);
    expect(report.problem).toMatchObject({ code: 'not_found', status: 404 });
    expect(report.problem!.message).toBe(
      `Neither ${server.url}/api/v1/models nor ${server.url}/api/models exists (404) — the OpenAI API is usually under /v1 (e.g. http://${new URL(server.url).host}/v1); check the path in the address.`,
    );
    // LM Studio answers a wrong path with 200 and an error body: the same verdict.
    const lm = await serve(startOpenAIServer('lmstudio'));
    expect((await add(`${lm.url}/api`)).report.problem).toMatchObject({ code: 'not_found' });
  });

  it('a hung server: a timeout at the deadline', async () => {
    const server = await serve(startOpenAIServer('vllm'));
    server.fault('/', { hang: true });
    const { report } = await add(server.url);
    expect(report.problem).toMatchObject({ code: 'timeout' });
    expect(report.problem!.message).toMatch(/^No answer from 127\.0\.0\.1:\d+ within 3 s/);
    print('a hung server', report);
  });

  it('an HTML server, and one that loads no model', async () => {
    const html = await serve(startHtmlServer());
    const { report } = await add(html.url);
    expect(report.problem!.message).toMatch(
      /answers, but not as an OpenAI-compatible server \(it sent an HTML page for .*\/models\) — check the port/,
    );
    const empty = await serve(startOpenAIServer('vllm', { models: [] }));
    expect((await add(empty.url)).report.problem!.message).toMatch(/serves no chat model — load one/);
    const loading = await serve(startOpenAIServer('llama.cpp', { loading: true }));
    expect((await add(loading.url)).report.problem!.message).toMatch(/not ready \(503\), likely still loading/);
  });

  it('JSON that is not a model list, and a chat answered with something that is not an OpenAI reply', async () => {
    const noList = await serve(new FixtureServer(({ res }) => json(res, 200, { status: 'ok' })).start());
    expect((await add(noList.url)).report.problem!.message).toMatch(
      /not as an OpenAI-compatible server \(it sent JSON without a "data" model list for/,
    );
    const oddChat = await serve(
      new FixtureServer(({ req, res }) => {
        if (req.method === 'GET') return json(res, 200, { object: 'list', data: [{ id: 'm', object: 'model' }] });
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>Login</body></html>');
      }).start(),
    );
    const { report } = await add(oddChat.url);
    expect(report.ok).toBe(false);
    expect(check(report, 'chat')).toMatchObject({ ok: false });
    expect(report.problem!.message).toMatch(/answered the chat with an HTML page, not an OpenAI reply/);
  });

  it('a model list past 16 MB, and a chat streaming a line that never ends: read no further, said in words', async () => {
    // 32 MB of a "model list" that never closes: the doctor stops at 16 MB instead of holding it all.
    const huge = await serve(
      new FixtureServer(({ res }) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"object":"list","data":[');
        const piece = '{"id":"m","object":"model"},'.repeat(2048);
        for (let i = 0; i < (32 * 1024 * 1024) / piece.length && !res.destroyed; i++) res.write(piece);
        res.end(']}');
      }).start(),
    );
    expect((await add(huge.url)).report.problem!.message).toMatch(
      /not as an OpenAI-compatible server \(it sent more than 16 MB for .*\/models\)/,
    );
    const endless = await serve(
      new FixtureServer(({ req, res }) => {
        if (req.method === 'GET') return json(res, 200, { object: 'list', data: [{ id: 'm', object: 'model' }] });
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${'x'.repeat(2 * 1024 * 1024)}`);
      }).start(),
    );
    const { report } = await add(endless.url);
    expect(check(report, 'chat')).toMatchObject({ ok: false });
    expect(report.problem!.message).toMatch(/streamed a line longer than 1 MB in its chat reply/);
  });

  it('a malformed or refused address is refused before anything is saved', async () => {
    app = await startTestApp();
    for (const baseUrl of ['http://[::1', 'http://169.254.169.254/latest', 'ftp://x']) {
      const err = await add(baseUrl).catch((e: unknown) => e);
      expect(err, baseUrl).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('invalid_input');
    }
    expect((await app.client.call('endpoints.list', {})).endpoints).toEqual([]);
  });
});

describe('endpoints: the key goes to its endpoint only', () => {
  const auths = (s: FixtureServer) => s.requests.map((r) => r.headers.authorization ?? null);

  it('is sent to its own origin, dropped when the address moves to another origin, never returned', async () => {
    const a = await serve(startOpenAIServer('vllm', { apiKey: KEY }));
    const b = await serve(startOpenAIServer('vllm'));
    const first = await add(a.url, { apiKey: KEY });
    expect(auths(a).every((h) => h === `Bearer ${KEY}`)).toBe(true);
    expect(JSON.stringify(first)).not.toContain(KEY);
    expect(JSON.stringify(await app!.client.call('endpoints.list', {}))).not.toContain(KEY);

    // Same origin, another path: the key stays.
    const samePlace = await app!.client.call('endpoints.save', {
      id: first.endpoint.id,
      name: 'box',
      preset: 'vllm',
      baseUrl: `${a.url}/v1`,
    });
    expect(samePlace.endpoint).toMatchObject({ hasKey: true, keyOrigin: a.url });

    const moved = await app!.client.call('endpoints.save', {
      id: first.endpoint.id,
      name: 'box',
      preset: 'vllm',
      baseUrl: b.url,
    });
    expect(moved.endpoint).toMatchObject({ hasKey: false });
    expect(moved.endpoint.keyOrigin).toBeUndefined();
    expect(auths(b)).not.toContain(`Bearer ${KEY}`);
    expect(auths(b).every((h) => h === null)).toBe(true);
    // Removing a key on purpose: `apiKey: null`.
    const keyed = await app!.client.call('endpoints.save', {
      id: first.endpoint.id,
      name: 'box',
      preset: 'vllm',
      baseUrl: a.url,
      apiKey: KEY,
    });
    expect(keyed.endpoint.hasKey).toBe(true);
    const cleared = await app!.client.call('endpoints.save', {
      id: first.endpoint.id,
      name: 'box',
      preset: 'vllm',
      baseUrl: a.url,
      apiKey: null,
    });
    expect(cleared.endpoint.hasKey).toBe(false);
    await app!.client.call('endpoints.save', {
      id: first.endpoint.id,
      name: 'box',
      preset: 'vllm',
      baseUrl: a.url,
      apiKey: KEY,
    });
    await app!.client.call('endpoints.save', { id: first.endpoint.id, name: 'box', preset: 'vllm', baseUrl: b.url });
    // Moving back does not bring the key back: it has to be entered again.
    const back = await app!.client.call('endpoints.save', {
      id: first.endpoint.id,
      name: 'box',
      preset: 'vllm',
      baseUrl: a.url,
    });
    expect(back.endpoint.hasKey).toBe(false);
    expect(back.report.problem).toMatchObject({ code: 'unauthorized' });
  });

  it('a 302 to another origin carries no key (Test and the chat engines connection)', async () => {
    const a = await serve(startOpenAIServer('vllm', { apiKey: KEY }));
    const elsewhere = await serve(startOpenAIServer('vllm'));
    const { endpoint } = await add(a.url, { apiKey: KEY });
    a.redirectTo(elsewhere.url);
    await app!.client.call('endpoints.test', { id: endpoint.id });
    const conn = app!.services.endpoints.connection(endpoint.id)!;
    expect(conn).toMatchObject({ id: endpoint.id, name: 'box', baseUrl: `${a.url}/v1` });
    await (await conn.fetch(`${conn.baseUrl}/models`, { headers: { authorization: 'Bearer smuggled' } })).text();
    expect(elsewhere.requests.length).toBeGreaterThan(1);
    expect(auths(elsewhere).every((h) => h === null)).toBe(true);
    // Every request that reached the endpoint itself carried the key.
    expect(auths(a).every((h) => h === `Bearer ${KEY}`)).toBe(true);
  });

  it('a key an upstream echoes back (LM Studio quotes the start of a wrong token) is masked', async () => {
    const server = await serve(startOpenAIServer('lmstudio', { apiKey: KEY }));
    const wrong = 'lm-wrong-token-0000cccc';
    const { endpoint, report } = await add(server.url, { apiKey: wrong });
    expect(report.problem).toMatchObject({ code: 'unauthorized' });
    const conn = app!.services.endpoints.connection(endpoint.id)!;
    const text = await (await conn.fetch(`${conn.baseUrl}/models`)).text();
    expect(text).toContain('Malformed LM Studio API token provided');
    expect(text).not.toContain(wrong.slice(0, 10));
  });

  it('keys persist sealed with the desktop cipher, and only for the session without one', async () => {
    const cipher: Cipher = {
      available: () => true,
      encrypt: (s) => Buffer.from(s, 'utf8').map((b) => b ^ 0x5a),
      decrypt: (d) => Buffer.from(d.map((b) => b ^ 0x5a)).toString('utf8'),
    };
    const server = await serve(startOpenAIServer('vllm', { apiKey: KEY }));
    const dir = tempDir();
    try {
      app = await startTestApp({ dataDir: dir.path, cipher });
      const { endpoint } = await add(server.url, { apiKey: KEY });
      await app.close();
      const onDisk = ['endpoints.json', 'endpoint-keys.json'].map((f) => readFileSync(join(dir.path, f), 'utf8'));
      expect(onDisk.join('\n')).not.toContain(KEY);
      app = await startTestApp({ dataDir: dir.path, cipher });
      expect((await app.client.call('endpoints.list', {})).endpoints).toEqual([endpoint]);
      expect((await app.client.call('endpoints.test', { id: endpoint.id })).ok).toBe(true);
      await app.close();

      // The web mode: the endpoint stays, its key lasted for that session only.
      const web = tempDir();
      app = await startTestApp({ dataDir: web.path });
      const saved = await add(server.url, { apiKey: KEY });
      await app.close();
      expect(() => readFileSync(join(web.path, 'endpoint-keys.json'))).toThrow();
      app = await startTestApp({ dataDir: web.path });
      // (toEqual: an absent keyOrigin equals undefined.)
      expect((await app.client.call('endpoints.list', {})).endpoints).toEqual([
        { ...saved.endpoint, hasKey: false, keyOrigin: undefined },
      ]);
      await app.close();
      app = undefined;
      web.remove();
    } finally {
      dir.remove();
    }
  });
});

describe("endpoints: keys without a keyring follow the user's choice, as the other secrets do", () => {
  /** safeStorage on Linux without a keyring: a fixed key, and it says so. */
  const basicText: Cipher = {
    available: () => true,
    encrypt: (s) => Buffer.from(s, 'utf8').map((b) => b ^ 0x21),
    decrypt: (d) => Buffer.from(d.map((b) => b ^ 0x21)).toString('utf8'),
    backend: () => 'basic_text',
  };

  it('session only until the user opts in; on disk after; off disk again when they opt out', async () => {
    const server = await serve(startOpenAIServer('vllm', { apiKey: KEY }));
    const dir = tempDir();
    const keysFile = join(dir.path, 'endpoint-keys.json');
    try {
      app = await startTestApp({ dataDir: dir.path, cipher: basicText });
      const { endpoint } = await add(server.url, { apiKey: KEY });
      expect(existsSync(keysFile)).toBe(false);
      await app.client.call('secrets.keepWithoutKeyring', { keep: true });
      expect(existsSync(keysFile)).toBe(true);
      expect(readFileSync(keysFile, 'utf8')).not.toContain(KEY);
      await app.close();
      app = await startTestApp({ dataDir: dir.path, cipher: basicText });
      expect((await app.client.call('endpoints.list', {})).endpoints[0]).toMatchObject({
        id: endpoint.id,
        hasKey: true,
      });
      await app.client.call('secrets.keepWithoutKeyring', { keep: false });
      expect(existsSync(keysFile)).toBe(false);
      // Still held for this session.
      expect((await app.client.call('endpoints.test', { id: endpoint.id })).ok).toBe(true);
    } finally {
      await app?.close();
      app = undefined;
      dir.remove();
    }
  });
});

describe('endpoints: HUBDESK_ENDPOINTS', () => {
  it('pre-sets read-only endpoints whose key comes from the variable named', async () => {
    const server = await serve(startOpenAIServer('vllm', { apiKey: KEY }));
    app = await startTestApp({
      env: {
        HUBDESK_ENDPOINTS: JSON.stringify([
          { name: 'GPU box', baseUrl: server.url, preset: 'vllm', apiKeyEnv: 'GPU_BOX_KEY' },
          { name: 'broken', baseUrl: 'http://169.254.169.254' },
        ]),
        GPU_BOX_KEY: KEY,
      },
    });
    const { endpoints } = await app.client.call('endpoints.list', {});
    expect(endpoints).toEqual([
      {
        id: expect.stringMatching(/^e_env[a-f0-9]+$/),
        name: 'GPU box',
        preset: 'vllm',
        baseUrl: server.url,
        hasKey: true,
        keyOrigin: server.url,
        source: 'env',
      },
    ]);
    const id = endpoints[0].id;
    // The model picker's listing finds the /v1 the address lacks, and chats go there from then on.
    const { models } = await app.client.call('endpoints.models', { id });
    expect(models.map((m) => m.id)).toEqual(['Qwen/Qwen3-8B']);
    expect((await app.client.call('endpoints.list', {})).endpoints[0].baseUrl).toBe(`${server.url}/v1`);
    expect(app.services.endpoints.connection(id)!.baseUrl).toBe(`${server.url}/v1`);
    const report = await app.client.call('endpoints.test', { id });
    expect(report.ok).toBe(true);
    for (const attempt of [
      () => app!.client.call('endpoints.save', { id, name: 'x', preset: 'vllm', baseUrl: server.url }),
      () => app!.client.call('endpoints.remove', { id }),
    ])
      await expect(attempt()).rejects.toMatchObject({ code: 'forbidden' });
    // The same id on the next start.
    const again = await startTestApp({
      env: { HUBDESK_ENDPOINTS: JSON.stringify([{ name: 'GPU box', baseUrl: server.url }]) },
    });
    expect((await again.client.call('endpoints.list', {})).endpoints[0].id).toBe(id);
    await again.close();
  });

  it('a removed endpoint is gone for the chat engines too', async () => {
    const server = await serve(startOpenAIServer('vllm'));
    const { endpoint } = await add(server.url);
    await app!.client.call('endpoints.remove', { id: endpoint.id });
    expect(app!.services.endpoints.connection(endpoint.id)).toBeUndefined();
    await expect(app!.client.call('endpoints.test', { id: endpoint.id })).rejects.toMatchObject({ code: 'not_found' });
  });
});
