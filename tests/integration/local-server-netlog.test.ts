import { hostname } from 'node:os';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '@shared/contract/local-server';
import { lanAddresses } from '../../electron/main/services/local/server/lan';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { scriptedGguf } from '../fixtures/scripted-gguf';

// The local server's browser boundary (CORS allowlist, the local-network switch) and its request log, through the
// real services and raw HTTP, so every header and status is seen as a browser or a client gets it.

const SCRIPT = ['▁Hello', '▁from', '▁HubDesk', '.'];
const PAGE = 'http://localhost:5173';
/** What the openai JS client sends from a browser, besides the content type and the key. */
const STAINLESS = ['x-stainless-os', 'x-stainless-lang', 'x-stainless-package-version', 'x-stainless-retry-count'];

let t: LocalServerApp;
let app: LocalServerApp['app'];
let port: number;
let chatId: string;
const raw = (path: string, opts?: Parameters<typeof rawRequest>[2]) => rawRequest(port, path, opts);
const corsHeaders = (h: Record<string, unknown>) => Object.keys(h).filter((k) => k.startsWith('access-control'));
const chatBody = (content: string) =>
  JSON.stringify({ model: chatId, messages: [{ role: 'user', content }], temperature: 0, max_tokens: 16 });

beforeAll(async () => {
  t = await startLocalServerApp({ 'scripted-chat.gguf': scriptedGguf({ script: SCRIPT }) });
  ({ app, port } = t);
  chatId = t.ids['scripted-chat.gguf'];
  const s = await app.client.call('local.server.set', { enabled: true, port, key: KEY });
  expect(s).toMatchObject({ running: true, lan: false, corsOrigins: [], keepBodies: false });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('local server: CORS', () => {
  it('refuses a preflight and a request from a page whose origin is not allowlisted: 403, no grant', async () => {
    const pre = await raw('/v1/chat/completions', {
      method: 'OPTIONS',
      key: null,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(403);
    expect(corsHeaders(pre.headers)).toEqual([]);
    expect(JSON.parse(pre.text)).toEqual({
      error: {
        message: expect.stringMatching(/https:\/\/evil\.example .*add its origin under "Allowed origins" in HubDesk/),
        type: 'permission_error',
        param: null,
        code: 'origin_not_allowed',
      },
    });
    // The real request too, with the right key: a page cannot use the server by skipping the preflight.
    const post = await raw('/v1/models', { headers: { origin: 'https://evil.example' } });
    expect(post.status).toBe(403);
    expect(corsHeaders(post.headers)).toEqual([]);
  });

  it('an allowlist entry must be an origin: a path, `*` or `null` is refused with words', async () => {
    for (const bad of ['*', 'null', 'http://localhost:5173/app', 'localhost:5173', 'HTTP://LOCALHOST:5173'])
      await expect(app.client.call('local.server.set', { corsOrigins: [bad] })).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(/^Allowed origin: not an origin: use an origin like http:\/\/localhost:5173/),
      });
    expect((await app.client.call('local.server.status', {})).corsOrigins).toEqual([]);
  });

  it('grants an allowlisted origin: its preflight with the x-stainless headers, then the real request', async () => {
    const s = await app.client.call('local.server.set', { corsOrigins: [PAGE, 'chrome-extension://abcdef'] });
    expect(s.corsOrigins).toEqual([PAGE, 'chrome-extension://abcdef']);
    const asked = ['authorization', 'content-type', ...STAINLESS].join(', ');
    const pre = await raw('/v1/chat/completions', {
      method: 'OPTIONS',
      key: null,
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': asked,
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': asked,
      'access-control-max-age': expect.stringMatching(/^\d+$/),
      vary: 'Origin',
    });
    expect(pre.text).toBe('');

    const post = await raw('/v1/chat/completions', {
      method: 'POST',
      body: chatBody('hello'),
      headers: { origin: PAGE },
    });
    expect(post.status).toBe(200);
    expect(post.headers).toMatchObject({ 'access-control-allow-origin': PAGE, vary: 'Origin' });
    expect(JSON.parse(post.text).choices[0].message.content.trim()).toBe('Hello from HubDesk.');
    // Still the key: the grant lets the page read answers, not skip it.
    const noKey = await raw('/v1/models', { key: null, headers: { origin: PAGE } });
    expect(noKey.status).toBe(401);
    expect(noKey.headers['access-control-allow-origin']).toBe(PAGE);
  });

  it('refuses a preflight asking for a header or a method outside the list', async () => {
    const ask = (method: string, headers: string) =>
      raw('/v1/chat/completions', {
        method: 'OPTIONS',
        key: null,
        headers: {
          origin: PAGE,
          'access-control-request-method': method,
          'access-control-request-headers': headers,
        },
      });
    const header = await ask('POST', 'content-type, x-custom-thing');
    expect(header.status).toBe(403);
    expect(corsHeaders(header.headers)).toEqual([]);
    expect(JSON.parse(header.text).error.message).toMatch(/does not take the header x-custom-thing/);
    const method = await ask('DELETE', 'authorization');
    expect(method.status).toBe(403);
    expect(JSON.parse(method.text).error.message).toMatch(/does not answer DELETE requests/);
  });
});

describe('local server: the local network', () => {
  const address = lanAddresses()[0];

  it('off: bound to 127.0.0.1 only (another interface of this machine is refused)', async () => {
    const s = await app.client.call('local.server.status', {});
    expect(s).toMatchObject({ lan: false, running: true });
    expect(s.lanUrls).toBeUndefined();
    if (!address) return; // a machine with loopback only has no other interface to try
    await expect(raw('/v1/models', { address, host: `${address}:${port}` })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('on: reachable at this machine’s address with the key; the Host check still refuses foreign names', async () => {
    const s = await app.client.call('local.server.set', { lan: true });
    expect(s).toMatchObject({ lan: true, running: true, url: `http://127.0.0.1:${port}/v1` });
    expect(s.lanUrls).toEqual(lanAddresses().map((a) => `http://${a}:${port}/v1`));
    expect((await raw('/v1/models')).status).toBe(200);
    const name = hostname().toLowerCase();
    expect((await raw('/v1/models', { host: `${name}.local:${port}` })).status).toBe(200);
    const rebound = await raw('/v1/models', { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.text).error.message).toMatch(/network address or name/);
    if (address) {
      const there = await raw('/v1/models', { address, host: `${address}:${port}` });
      expect(there.status).toBe(200);
      expect((await raw('/v1/models', { address, host: `${address}:${port}`, key: null })).status).toBe(401);
    }
    const off = await app.client.call('local.server.set', { lan: false });
    expect(off).toMatchObject({ lan: false, running: true });
    if (address) await expect(raw('/v1/models', { address, host: `${address}:${port}` })).rejects.toThrow();
  });
});

describe('local server: the request log', () => {
  it('records a chat completion (model, tokens, status, client) without its text; a 401 and a 404; live', async () => {
    await app.client.call('local.server.log.clear', {});
    const snapshots: RequestLogEntry[][] = [];
    const watch = app.client.stream('local.server.log.watch', {}, (events) => {
      for (const e of events) snapshots.push(e.entries);
    });
    try {
      await expect.poll(() => snapshots.length).toBeGreaterThan(0);
      expect(snapshots[0]).toEqual([]);

      const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: KEY, maxRetries: 0 });
      const reply = await client.chat.completions.create({
        model: chatId,
        messages: [{ role: 'user', content: 'a secret prompt' }],
        temperature: 0,
      });
      const latest = () => snapshots.at(-1) ?? [];
      await expect.poll(() => latest()[0]?.status).toBe(200);
      const chat = latest()[0]!;
      expect(chat).toMatchObject({
        method: 'POST',
        path: '/v1/chat/completions',
        model: chatId,
        status: 200,
        promptTokens: reply.usage!.prompt_tokens,
        completionTokens: reply.usage!.completion_tokens,
        client: expect.stringMatching(/^OpenAI\/JS \d+\.x$/),
        userAgent: expect.stringMatching(/^OpenAI\/JS /),
        kept: false,
      });
      expect(chat.tokensPerSecond).toBeGreaterThan(0);
      expect(chat.error).toBeUndefined();
      expect(JSON.stringify(snapshots)).not.toContain('a secret prompt');
      expect(JSON.stringify(snapshots)).not.toContain('Hello from');
      expect(await app.client.call('local.server.log.entry', { id: chat.id })).toEqual({});

      await raw('/v1/models', { key: 'wrong-key-wrong-key-1234', headers: { 'user-agent': 'curl/8.5.0' } });
      await raw('/v1/nothing', { headers: { 'user-agent': 'python-httpx/0.27.0' } });
      await expect.poll(() => latest().length).toBe(3);
      const [missing, refused] = latest();
      expect(missing).toMatchObject({
        method: 'GET',
        path: '/v1/nothing',
        status: 404,
        client: 'python-httpx',
        error: expect.stringMatching(/^No route GET \/v1\/nothing/),
      });
      expect(refused).toMatchObject({ path: '/v1/models', status: 401, client: 'curl/8', error: expect.any(String) });
      expect(missing!.model).toBeUndefined();
    } finally {
      watch.cancel();
      await watch.result.catch(() => {});
    }
  });

  it('records text completions and Anthropic messages with their model and tokens too', async () => {
    await app.client.call('local.server.log.clear', {});
    const text = await raw('/v1/completions', {
      method: 'POST',
      body: JSON.stringify({ model: chatId, prompt: 'x\n', temperature: 0 }),
    });
    expect(text.status).toBe(200);
    const msg = await raw('/v1/messages', {
      method: 'POST',
      body: JSON.stringify({ model: chatId, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(msg.status).toBe(200);
    const entries = () => app.services.local.server.log.list();
    await expect.poll(() => entries().filter((e) => e.status === 200).length).toBe(2);
    const [messages, completions] = entries();
    for (const [e, path] of [
      [messages, '/v1/messages'],
      [completions, '/v1/completions'],
    ] as const)
      expect(e, path).toMatchObject({
        path,
        model: chatId,
        status: 200,
        promptTokens: expect.any(Number),
        completionTokens: expect.any(Number),
      });
    expect(completions.completionTokens).toBeGreaterThan(0);
    expect(messages.promptTokens).toBeGreaterThan(0);
  });

  it('keeps the request body (never the key) and the reply only with "keep request bodies" on; Clear empties it', async () => {
    const on = await app.client.call('local.server.set', { keepBodies: true });
    expect(on.keepBodies).toBe(true);
    await app.client.call('local.server.log.clear', {});
    // A client that puts the key in the body as well (some do, as `api_key`) still has it removed.
    const body = JSON.stringify({
      model: chatId,
      messages: [{ role: 'user', content: `kept prompt, mentioning ${KEY}` }],
      api_key: KEY,
      temperature: 0,
    });
    const r = await raw('/v1/chat/completions', { method: 'POST', body });
    expect(r.status).toBe(200);
    let entries: RequestLogEntry[] = [];
    await expect.poll(async () => (entries = (await logNow()).filter((e) => e.status !== undefined)).length).toBe(1);
    expect(entries[0]).toMatchObject({ kept: true, status: 200, model: chatId });
    const kept = await app.client.call('local.server.log.entry', { id: entries[0]!.id });
    expect(kept.request).toContain('kept prompt, mentioning [key removed]');
    expect(kept.request).toContain('"api_key":"[removed]"');
    expect(kept.request).not.toContain(KEY);
    expect(kept.reply?.trim()).toBe('Hello from HubDesk.');

    // A streamed reply is kept as its text, not its events.
    const streamed = await raw('/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({ ...JSON.parse(chatBody('again')), stream: true }),
    });
    expect(streamed.status).toBe(200);
    await expect.poll(async () => (await logNow()).filter((e) => e.status !== undefined).length).toBe(2);
    const latest = (await logNow())[0]!;
    expect((await app.client.call('local.server.log.entry', { id: latest.id })).reply?.trim()).toBe(
      'Hello from HubDesk.',
    );

    await app.client.call('local.server.log.clear', {});
    expect(await logNow()).toEqual([]);
    await app.client.call('local.server.set', { keepBodies: false });
  });
});

/** The log as it is now: the watch's first snapshot. */
async function logNow(): Promise<RequestLogEntry[]> {
  let first: RequestLogEntry[] | undefined;
  const watch = app.client.stream('local.server.log.watch', {}, (events) => (first ??= events[0]?.entries));
  try {
    await expect.poll(() => first).toBeDefined();
    return first!;
  } finally {
    watch.cancel();
    await watch.result.catch(() => {});
  }
}
