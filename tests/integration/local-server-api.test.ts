import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { bigramGguf, functionCallGguf, scriptedGguf, START, thinkingGguf } from '../fixtures/scripted-gguf';
import { tinyGguf } from '../fixtures/tiny-gguf';

// The local server's OpenAI API end to end: the real services, the real engine (node-llama-cpp on tiny scripted
// GGUFs) and the official `openai` client against it.

const SCRIPT = ['▁Hello', '▁from', '▁HubDesk', '.'];
// "yes no yes no …" until the context is full: a reply that only a stop ends early.
const LOOP: [string, string][] = [
  [START, '▁yes'],
  ['▁yes', '▁no'],
  ['▁no', '▁yes'],
];

let t: LocalServerApp;
let app: LocalServerApp['app'];
let home: LocalServerApp['home'];
let port: number;
let chatId: string;
let tinyId: string;
let loopId: string;
let toolId: string;
let thinkId: string;
let client: OpenAI;
const raw = (path: string, opts?: Parameters<typeof rawRequest>[2]) => rawRequest(port, path, opts);

beforeAll(async () => {
  t = await startLocalServerApp({
    'scripted-chat.gguf': scriptedGguf({ script: SCRIPT }),
    'tiny-llama.gguf': tinyGguf({ seed: 7 }),
    'looping.gguf': bigramGguf({ edges: LOOP }),
    'weather-tool.gguf': functionCallGguf(),
    'thinking.gguf': thinkingGguf(),
  });
  ({ app, home, port } = t);
  chatId = t.ids['scripted-chat.gguf'];
  tinyId = t.ids['tiny-llama.gguf'];
  loopId = t.ids['looping.gguf'];
  toolId = t.ids['weather-tool.gguf'];
  thinkId = t.ids['thinking.gguf'];
  const s = await app.client.call('local.server.set', { enabled: true, port, key: KEY });
  client = new OpenAI({ baseURL: s.url, apiKey: KEY, maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await t?.close();
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
      // A context far longer than the abort takes to arrive: the server stops a reply at the context's end.
      await app.client.call('local.load', { id: loopId, contextSize: 32_768 });
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
});
