import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { request, createServer, type Server } from 'node:http';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { bigramGguf, functionCallGguf, scriptedGguf, START, thinkingGguf } from '../fixtures/scripted-gguf';
import { closedPort } from '../helpers/ports';
import { AppError } from '@shared/errors';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

// The local OpenAI-compatible server end to end: the real services, the real engine (node-llama-cpp on tiny GGUFs)
// and the official `openai` client against it.

const KEY = 'hubdesk-test-key-0123456789';
const SCRIPT = ['▁Hello', '▁from', '▁HubDesk', '.'];

let app: TestApp;
let home: { path: string; remove(): void };
let port: number;
let chatId: string;
let tinyId: string;
let loopId: string;
let toolId: string;
let thinkId: string;
let client: OpenAI;

/** A raw request, to see what the client libraries hide (headers, exact bodies). */
function raw(
  path: string,
  opts: { method?: string; host?: string; key?: string | null; body?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: opts.host ?? `127.0.0.1:${port}` };
    if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEY}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const req = request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

beforeAll(async () => {
  home = tempDir('hubdesk-local-home-');
  const folder = join(home.path, 'gguf');
  mkdirSync(folder);
  writeFileSync(join(folder, 'scripted-chat.gguf'), scriptedGguf({ script: SCRIPT }));
  writeFileSync(join(folder, 'tiny-llama.gguf'), tinyGguf({ seed: 7 }));
  // "yes no yes no …" until the context is full: a reply that only a stop ends early.
  const loop: [string, string][] = [
    [START, '▁yes'],
    ['▁yes', '▁no'],
    ['▁no', '▁yes'],
  ];
  writeFileSync(join(folder, 'looping.gguf'), bigramGguf({ edges: loop }));
  writeFileSync(join(folder, 'weather-tool.gguf'), functionCallGguf());
  writeFileSync(join(folder, 'thinking.gguf'), thinkingGguf());
  app = await startTestApp({ local: { home: home.path, runtime: { gpu: false, threads: 1 } } });
  const { models } = await app.client.call('local.folders.add', { path: folder });
  chatId = models.find((m) => m.path.endsWith('scripted-chat.gguf'))!.id;
  tinyId = models.find((m) => m.path.endsWith('tiny-llama.gguf'))!.id;
  loopId = models.find((m) => m.path.endsWith('looping.gguf'))!.id;
  toolId = models.find((m) => m.path.endsWith('weather-tool.gguf'))!.id;
  thinkId = models.find((m) => m.path.endsWith('thinking.gguf'))!.id;
  port = await closedPort();
}, 60_000);

afterAll(async () => {
  await app?.close();
  home?.remove();
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
    expect(s.error?.message).toMatch(/Set a key for the local server first \(16\+ characters\)/);
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
    client = new OpenAI({ baseURL: s.url, apiKey: KEY, maxRetries: 0 });
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
    const err = await client.chat.completions
      .create({ model: 'nope/missing.gguf', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });
});

describe('local server: the OpenAI API over the built-in engine', () => {
  it('lists the usable local models', async () => {
    const list = await client.models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining([chatId, tinyId]));
    expect(list.data[0]).toMatchObject({ object: 'model', owned_by: 'hubdesk' });
  });

  it('streams a chat completion: role first, the text, the finish reason, usage, [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: chatId,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      max_tokens: 32,
    });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text.trim()).toBe('Hello from HubDesk.');
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish?.choices[0].finish_reason).toBe('stop');
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage!.completion_tokens).toBeGreaterThan(0);
    expect(usage.usage!.total_tokens).toBe(usage.usage!.prompt_tokens + usage.usage!.completion_tokens);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === chatId)).toBe(true);
  });

  it('answers a chat completion in one piece without stream, and stops at max_tokens with "length"', async () => {
    const full = await client.chat.completions.create({
      model: chatId,
      messages: [{ role: 'user', content: 'hello' }],
      temperature: 0,
    });
    expect(full.object).toBe('chat.completion');
    expect(full.choices[0].message).toMatchObject({ role: 'assistant' });
    expect(full.choices[0].message.content?.trim()).toBe('Hello from HubDesk.');
    expect(full.choices[0].finish_reason).toBe('stop');
    const cut = await client.chat.completions.create({
      model: chatId,
      messages: [{ role: 'user', content: 'hello' }],
      temperature: 0,
      max_tokens: 2,
    });
    expect(cut.choices[0].finish_reason).toBe('length');
    expect(cut.choices[0].message.content?.trim()).toBe('Hello from');
  });

  it('streams tool calls (index, id, name, JSON arguments, finish "tool_calls"), then answers the tool result', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const stream = await client.chat.completions.create({ model: toolId, messages, tools, stream: true });
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | null | undefined;
    for await (const c of stream) {
      for (const d of c.choices[0]?.delta.tool_calls ?? []) {
        calls[d.index] ??= { arguments: '' };
        if (d.id) calls[d.index].id = d.id;
        if (d.function?.name) calls[d.index].name = d.function.name;
        calls[d.index].arguments += d.function?.arguments ?? '';
      }
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('tool_calls');
    expect(calls).toHaveLength(1);
    expect(calls[0].name).toBe('get_weather');
    expect(JSON.parse(calls[0].arguments)).toEqual({ city: 'Paris' });
    expect(calls[0].id).toBeTruthy();
    const answer = await client.chat.completions.create({
      model: toolId,
      tools,
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: calls[0].id!, type: 'function', function: { name: 'get_weather', arguments: calls[0].arguments } },
          ],
        },
        { role: 'tool', tool_call_id: calls[0].id!, content: '{"sky":"sunny"}' },
      ],
    });
    expect(answer.choices[0].finish_reason).toBe('stop');
    expect(answer.choices[0].message.content?.trim()).toBe('Sunny in Paris.');
  });

  it("streams a thinking model's thought as reasoning_content, apart from its answer", async () => {
    const stream = await client.chat.completions.create({
      model: thinkId,
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let thought = '';
    let text = '';
    for await (const c of stream) {
      const d = c.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
      thought += d?.reasoning_content ?? '';
      text += d?.content ?? '';
    }
    expect(thought.trim()).toBe('Let me think');
    expect(text.trim()).toBe('Hello.');
  });

  it('embeds a string and a list, as floats and as the base64 the client asks for by default', async () => {
    const one = await client.embeddings.create({ model: tinyId, input: 'hello world' });
    expect(one.object).toBe('list');
    expect(one.data).toHaveLength(1);
    expect(one.data[0].embedding).toHaveLength(64);
    const floats = await client.embeddings.create({
      model: tinyId,
      input: ['hello', 'world'],
      encoding_format: 'float',
    });
    expect(floats.data.map((d) => d.index)).toEqual([0, 1]);
    expect(floats.data[0].embedding).toHaveLength(64);
    // The same vector whichever encoding carried it (float32 precision).
    const again = await client.embeddings.create({ model: tinyId, input: ['hello'] });
    again.data[0].embedding.forEach((v, i) => expect(v).toBeCloseTo(floats.data[0].embedding[i], 5));
  });

  it('stops the generation when the client goes away', async () => {
    const engine = (app.services.local.server as unknown as { opts: { engine: { turn: (...a: never[]) => unknown } } })
      .opts.engine;
    const original = engine.turn;
    let seen: AbortSignal | undefined;
    let outcome: Promise<string> | undefined;
    engine.turn = function (this: unknown, ...args: never[]) {
      seen = (args[0] as { signal: AbortSignal }).signal;
      const result = Promise.resolve(original.apply(this, args));
      outcome = result.then(
        () => 'completed',
        (e: { code?: string }) => e.code ?? 'failed',
      );
      return result;
    } as typeof engine.turn;
    try {
      const ac = new AbortController();
      const stream = await client.chat.completions.create(
        { model: loopId, messages: [{ role: 'user', content: 'hello' }], stream: true, max_tokens: 100_000 },
        { signal: ac.signal },
      );
      // The client's stream ends quietly on an abort (the SDK swallows it); the server must see the socket close.
      let text = '';
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        if (text.includes('yes')) ac.abort();
      }
      expect(text.trim()).toBe('yes');
      await expect.poll(() => seen?.aborted).toBe(true);
      // The engine's turn ends as stopped, not by running on to the end of the context.
      expect(await outcome).toBe('aborted');
    } finally {
      engine.turn = original;
    }
  });

  it('"Open as code" for a built-in chat targets the local server, reads the key from the environment, and runs', async () => {
    const conv = await app.client.call('chat.create', {
      backend: 'local',
      model: chatId,
      system: 'Be brief.',
      params: { temperature: 0, max_tokens: 16 },
    });
    const { snippets, notice } = await app.client.call('chat.code', { id: conv.id });
    expect(snippets.map((x) => `${x.language}/${x.client}`)).toEqual(['python/openai', 'js/openai', 'sh/curl']);
    for (const x of snippets) {
      expect(x.content).toContain(`http://127.0.0.1:${port}/v1`);
      expect(x.content).toContain(chatId);
      expect(x.content).toContain('HUBDESK_LOCAL_SERVER_KEY');
      expect(x.content).toContain('Local models → Built-in engine → Server');
      expect(x.content).not.toContain(KEY);
      expect(x.content).not.toContain('OPENAI_API_KEY');
      expect(x.content).not.toMatch(/\{\{|\{%|\n\n\n/);
    }
    expect(snippets[2].content).toContain('Bearer ${HUBDESK_LOCAL_SERVER_KEY:-');
    expect(notice).toMatch(/HUBDESK_LOCAL_SERVER_KEY/);
    // The JavaScript snippet, run as written with the key in the environment, streams the model's reply.
    const dir = join(home.path, 'code');
    mkdirSync(dir);
    symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'chat.mjs'), snippets[1].content);
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'chat.mjs')], {
      env: { ...process.env, HUBDESK_LOCAL_SERVER_KEY: KEY },
    });
    expect(stdout.trim()).toBe('Hello from HubDesk.');
  });

  it('a mid-stream failure ends the stream with an error event and no [DONE]', async () => {
    const engine = (app.services.local.server as unknown as { opts: { engine: { turn: (...a: never[]) => unknown } } })
      .opts.engine;
    const original = engine.turn;
    // The real engine streams its reply, then the turn fails (as a model that crashes before it ends would).
    engine.turn = async function (this: unknown, ...args: never[]) {
      await original.apply(this, args);
      throw new AppError('internal', 'The model stopped answering.');
    } as typeof engine.turn;
    try {
      const r = await raw('/v1/chat/completions', {
        method: 'POST',
        body: JSON.stringify({ model: chatId, messages: [{ role: 'user', content: 'hello' }], stream: true }),
      });
      expect(r.status).toBe(200);
      const events = r.text.split('\n\n').filter(Boolean);
      expect(events[0]).toMatch(/"role":"assistant"/);
      expect(JSON.parse(events.at(-1)!.slice('data: '.length))).toMatchObject({
        error: { message: 'The model stopped answering.', type: 'server_error' },
      });
      expect(r.text).not.toContain('[DONE]');
    } finally {
      engine.turn = original;
    }
  });

  it('turns off, and closes its port', async () => {
    const s = await app.client.call('local.server.set', { enabled: false });
    expect(s).toMatchObject({ enabled: false, running: false });
    await expect(raw('/v1/models')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('local server at launch', () => {
  it('starts with the app when it was left on, with the key from HUBDESK_LOCAL_SERVER_KEY', async () => {
    const data = tempDir();
    const launchPort = await closedPort();
    writeFileSync(join(data.path, 'local.json'), JSON.stringify({ server: { enabled: true, port: launchPort } }));
    const again = await startTestApp({
      dataDir: data.path,
      env: { HUBDESK_LOCAL_SERVER_KEY: KEY },
      local: { home: home.path, runtime: { gpu: false, threads: 1 } },
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
});
