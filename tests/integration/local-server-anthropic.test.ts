import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { bigramGguf, functionCallGguf, scriptedGguf, START, thinkingGguf } from '../fixtures/scripted-gguf';

// The local server's Anthropic Messages API end to end: the real services, the real engine (node-llama-cpp on tiny
// scripted GGUFs) and Anthropic's own client against it, with raw requests where the client hides the wire.

const SCRIPT = ['▁Hello', '▁from', '▁HubDesk', '.'];
// "yes no yes no …" until the context is full: a reply that only a stop ends early.
const LOOP: [string, string][] = [
  [START, '▁yes'],
  ['▁yes', '▁no'],
  ['▁no', '▁yes'],
];
const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
// A 1×1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

let t: LocalServerApp;
let app: LocalServerApp['app'];
let port: number;
let chatId: string;
let loopId: string;
let toolId: string;
let thinkId: string;
let cityId: string;
let client: Anthropic;
const raw = (path: string, opts?: Parameters<typeof rawRequest>[2]) => rawRequest(port, path, opts);
const baseURL = () => `http://127.0.0.1:${port}`;

/** SSE text as Anthropic frames it: `event: <name>\ndata: <json>` blocks, each event's name repeated as its type. */
function events(text: string): { event: string; data: Record<string, unknown> }[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const m = /^event: (\w+)\ndata: (.+)$/.exec(frame);
      expect(m, frame).not.toBeNull();
      const data = JSON.parse(m![2]) as Record<string, unknown>;
      expect(data.type).toBe(m![1]);
      return { event: m![1], data };
    });
}

/** The engine the server answers with, to watch or fail its turns. */
function serverEngine() {
  return (app.services.local.server as unknown as { opts: { engine: { turn: (...a: never[]) => unknown } } }).opts
    .engine;
}

beforeAll(async () => {
  t = await startLocalServerApp({
    'scripted-chat.gguf': scriptedGguf({ script: SCRIPT }),
    'looping.gguf': bigramGguf({ edges: LOOP }),
    'weather-tool.gguf': functionCallGguf(),
    'thinking.gguf': thinkingGguf(),
    // Writes {"city": "Paris"} in the grammar's own spacing.
    'city-json.gguf': scriptedGguf({ script: ['{"city":▁', '"Paris"', '}'] }),
  });
  ({ app, port } = t);
  chatId = t.ids['scripted-chat.gguf'];
  loopId = t.ids['looping.gguf'];
  toolId = t.ids['weather-tool.gguf'];
  thinkId = t.ids['thinking.gguf'];
  cityId = t.ids['city-json.gguf'];
  await app.client.call('local.server.set', { enabled: true, port, key: KEY });
  // This version of Anthropic's client sends `apiKey` as a bearer token; `x-api-key` is checked below.
  client = new Anthropic({ baseURL: baseURL(), apiKey: KEY, maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("local server: Anthropic's Messages API over the built-in engine", () => {
  it('answers a message in one piece: text, end_turn, usage', async () => {
    const msg = await client.messages.create({
      model: chatId,
      max_tokens: 64,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(msg).toMatchObject({ type: 'message', role: 'assistant', model: chatId, stop_reason: 'end_turn' });
    expect(msg.id).toMatch(/^msg_/);
    expect(msg.stop_sequence).toBeNull();
    expect(msg.content).toHaveLength(1);
    expect(msg.content[0].type).toBe('text');
    expect((msg.content[0] as Anthropic.TextBlock).text.trim()).toBe('Hello from HubDesk.');
    expect(msg.usage.input_tokens).toBeGreaterThan(0);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
  });

  it("streams a message through the client's stream helper, and its final message matches", async () => {
    const stream = client.messages.stream({
      model: chatId,
      max_tokens: 64,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
    let streamed = '';
    stream.on('text', (d) => (streamed += d));
    const msg = await stream.finalMessage();
    expect(streamed.trim()).toBe('Hello from HubDesk.');
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.content.map((b) => b.type)).toEqual(['text']);
    expect((msg.content[0] as Anthropic.TextBlock).text).toBe(streamed);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
    // Input tokens come with message_delta (they are known when the turn ends).
    expect(msg.usage.input_tokens).toBeGreaterThan(0);
  });

  it('frames the stream as Anthropic does: named events in order, each block started, delta-ed and stopped', async () => {
    const r = await raw('/v1/messages', {
      method: 'POST',
      body: JSON.stringify({
        model: chatId,
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: 'hello' }],
      }),
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    const evs = events(r.text);
    const names = evs.map((e) => e.event);
    expect(names[0]).toBe('message_start');
    expect(names.slice(1, 3)).toEqual(['content_block_start', 'content_block_delta']);
    expect(names.slice(-4)).toEqual(['content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(new Set(names.slice(2, -3))).toEqual(new Set(['content_block_delta']));
    expect(evs[0].data.message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: chatId,
      content: [],
      stop_reason: null,
      stop_sequence: null,
    });
    expect(evs[1].data).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    const text = evs
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => {
        expect(e.data.index).toBe(0);
        return (e.data.delta as { type: string; text: string }).text;
      })
      .join('');
    expect(text.trim()).toBe('Hello from HubDesk.');
    expect(evs.at(-3)!.data).toEqual({ type: 'content_block_stop', index: 0 });
    const delta = evs.at(-2)!.data as { delta: unknown; usage: { output_tokens: number } };
    expect(delta.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null });
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
    expect(evs.at(-1)!.data).toEqual({ type: 'message_stop' });
  });

  it('stops at max_tokens with stop_reason "max_tokens"', async () => {
    const msg = await client.messages.create({
      model: chatId,
      max_tokens: 2,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(msg.stop_reason).toBe('max_tokens');
    expect((msg.content[0] as Anthropic.TextBlock).text.trim()).toBe('Hello from');
  });

  it('stops at a stop sequence, names it, and never sends it (streamed and not, split across pieces)', async () => {
    const once = await client.messages.create({
      model: loopId,
      max_tokens: 100,
      stop_sequences: ['never', 'no'],
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(once.stop_reason).toBe('stop_sequence');
    expect(once.stop_sequence).toBe('no');
    // The engine stopped it, so its token counts stand.
    expect(once.usage.input_tokens).toBeGreaterThan(0);
    expect((once.content[0] as Anthropic.TextBlock).text.trim()).toBe('yes');
    // "yes no" spans two of the model's pieces: " yes" waits for the next one to tell.
    const stream = client.messages.stream({
      model: loopId,
      max_tokens: 100,
      stop_sequences: ['yes no'],
      messages: [{ role: 'user', content: 'hello' }],
    });
    let streamed = '';
    stream.on('text', (d) => (streamed += d));
    const msg = await stream.finalMessage();
    expect(msg.stop_reason).toBe('stop_sequence');
    expect(msg.stop_sequence).toBe('yes no');
    expect(streamed).not.toContain('yes');
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
  });

  it('tool_choice "tool" forces that call, with input that follows its schema', async () => {
    const zone: Anthropic.Tool = {
      name: 'get_time',
      input_schema: { type: 'object', properties: { zone: { enum: ['UTC', 'CET'] } }, required: ['zone'] },
    };
    const msg = await client.messages.create({
      model: chatId,
      max_tokens: 60,
      tools: [WEATHER, zone],
      tool_choice: { type: 'tool', name: 'get_time' },
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(msg.stop_reason).toBe('tool_use');
    const use = msg.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(use.name).toBe('get_time');
    expect(['UTC', 'CET']).toContain((use.input as { zone: string }).zone);
  });

  it('output_config.format makes the reply JSON that follows the schema', async () => {
    const msg = await client.messages.create({
      model: cityId,
      max_tokens: 60,
      output_config: {
        format: { type: 'json_schema', schema: { type: 'object', properties: { city: { type: 'string' } } } },
      },
      messages: [{ role: 'user', content: 'Where?' }],
    });
    expect(JSON.parse((msg.content[0] as Anthropic.TextBlock).text)).toEqual({ city: 'Paris' });
  });

  it('calls a tool (a tool_use block, stop_reason "tool_use"), then answers its tool_result', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const stream = client.messages.stream({ model: toolId, max_tokens: 200, tools: [WEATHER], messages });
    const json: string[] = [];
    stream.on('inputJson', (partial) => json.push(partial));
    const call = await stream.finalMessage();
    expect(call.stop_reason).toBe('tool_use');
    const uses = call.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    expect(uses).toHaveLength(1);
    expect(uses[0].id).toMatch(/^toolu_/);
    expect(uses[0].name).toBe('get_weather');
    expect(uses[0].input).toEqual({ city: 'Paris' });
    expect(JSON.parse(json.join(''))).toEqual({ city: 'Paris' });
    // The same call answered in one piece has the same shape.
    const whole = await client.messages.create({ model: toolId, max_tokens: 200, tools: [WEATHER], messages });
    expect(whole.stop_reason).toBe('tool_use');
    expect(whole.content.find((b) => b.type === 'tool_use')).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
      input: { city: 'Paris' },
    });
    const answer = await client.messages.create({
      model: toolId,
      max_tokens: 200,
      tools: [WEATHER],
      messages: [
        ...messages,
        { role: 'assistant', content: call.content as Anthropic.ContentBlockParam[] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: uses[0].id, content: [{ type: 'text', text: '{"sky":"sunny"}' }] },
          ],
        },
      ],
    });
    expect(answer.stop_reason).toBe('end_turn');
    expect((answer.content[0] as Anthropic.TextBlock).text.trim()).toBe('Sunny in Paris.');
  });

  it('offers no tools under tool_choice "none": the model writes its call as text', async () => {
    const msg = await client.messages.create({
      model: toolId,
      max_tokens: 20,
      tools: [WEATHER],
      tool_choice: { type: 'none' },
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(msg.content.some((b) => b.type === 'tool_use')).toBe(false);
    expect(msg.stop_reason).toBe('end_turn');
    // Offered no function, the model's call syntax is only text.
    expect((msg.content[0] as Anthropic.TextBlock).text).toContain('||call:');
  });

  it("streams a thinking model's thought as a thinking block before its text, and leaves it out when disabled", async () => {
    const stream = client.messages.stream({
      model: thinkId,
      max_tokens: 64,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'hello' }],
    });
    let thought = '';
    stream.on('thinking', (d) => (thought += d));
    const msg = await stream.finalMessage();
    expect(thought.trim()).toBe('Let me think');
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect((msg.content[0] as Anthropic.ThinkingBlock).thinking).toBe(thought);
    expect((msg.content[1] as Anthropic.TextBlock).text.trim()).toBe('Hello.');
    const whole = await client.messages.create({
      model: thinkId,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(whole.content[0]).toMatchObject({ type: 'thinking', signature: '' });
    expect((whole.content[0] as Anthropic.ThinkingBlock).thinking.trim()).toBe('Let me think');
    const off = await client.messages.create({
      model: thinkId,
      max_tokens: 64,
      thinking: { type: 'disabled' },
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(off.content.some((b) => b.type === 'thinking')).toBe(false);
    // A thought sent back in the history is taken (and not given to the model).
    const next = await client.messages.create({
      model: thinkId,
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: whole.content as Anthropic.ContentBlockParam[] },
        { role: 'user', content: 'again' },
      ],
    });
    expect(next.stop_reason).toBe('end_turn');
  });

  it('takes a base64 image (the engine reads text only, so the reply is still text)', async () => {
    const msg = await client.messages.create({
      model: chatId,
      max_tokens: 64,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'text', text: 'hello' },
          ],
        },
      ],
    });
    expect((msg.content[0] as Anthropic.TextBlock).text.trim()).toBe('Hello from HubDesk.');
  });
});

describe('local server: Anthropic keys and errors', () => {
  const hello = { max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] };

  it("takes the key as x-api-key or as a bearer token; a wrong one is a 401 in Anthropic's shape", async () => {
    const byHeader = new Anthropic({
      baseURL: baseURL(),
      apiKey: 'unused',
      defaultHeaders: { Authorization: null, 'x-api-key': KEY },
      maxRetries: 0,
    });
    expect((await byHeader.messages.create({ model: chatId, ...hello })).type).toBe('message');
    const byToken = new Anthropic({ baseURL: baseURL(), authToken: KEY, maxRetries: 0 });
    expect((await byToken.messages.create({ model: chatId, ...hello })).type).toBe('message');
    const wrong = new Anthropic({
      baseURL: baseURL(),
      apiKey: 'unused',
      defaultHeaders: { Authorization: null, 'x-api-key': 'not-the-key-at-all!!' },
      maxRetries: 0,
    });
    const err = await wrong.messages.create({ model: chatId, ...hello }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((err as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: expect.stringMatching(/x-api-key/) },
    });
    // Raw: the x-api-key header alone is enough, on the OpenAI routes too; no key at all is the same 401.
    const models = await raw('/v1/models', { key: null, headers: { 'x-api-key': KEY } });
    expect(models.status).toBe(200);
    const none = await raw('/v1/messages', { method: 'POST', key: null, body: JSON.stringify({}) });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  /** A request the server must refuse with a 400 in Anthropic's shape whose message says `what`. */
  async function refused(body: Record<string, unknown>, what: RegExp, status = 400) {
    const err = await client.messages
      .create({ model: chatId, ...hello, ...body } as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const e = err as InstanceType<typeof Anthropic.APIError>;
    expect(e.status).toBe(status);
    const shape = e.error as { type: string; error: { type: string; message: string } };
    expect(shape.type).toBe('error');
    expect(shape.error.type).toBe(status === 404 ? 'not_found_error' : 'invalid_request_error');
    expect(shape.error.message).toMatch(what);
  }

  it("refuses each bad input with a 4xx in Anthropic's shape that says what to change", async () => {
    await refused({ max_tokens: undefined }, /'max_tokens': is required: send the most tokens/);
    await refused({ model: 'no-such-model' }, /"no-such-model" does not exist: GET \/v1\/models lists/, 404);
    await refused(
      {
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: 'Let me see.' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_nope', content: 'sunny' }] },
        ],
      },
      /'messages\.2\.content\.0\.tool_use_id': "toolu_nope" matches no tool_use block/,
    );
    await refused(
      {
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
          { role: 'user', content: 'and?' },
        ],
      },
      /'messages\.1': tool_use "toolu_1" has no tool_result in the next user message/,
    );
    await refused(
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'not base64!' } }],
          },
        ],
      },
      /'messages\.0\.content\.0\.source\.data': is not base64/,
    );
    await refused(
      {
        messages: [
          { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
        ],
      },
      /'messages\.0\.content\.0\.source\.type': image sources of type "url" are not offered: this server fetches nothing/,
    );
    await refused(
      { messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] },
      /content blocks of type "document" are not offered: send text/,
    );
    await refused({ top_k: 40 }, /top_k: not offered by this server .*: leave top_k out/);
    await refused(
      { tools: [{ type: 'web_search_20250305', name: 'web_search' }] },
      /'tools\.0\.type': "web_search_20250305" is one of Anthropic's server tools/,
    );
    await refused(
      { tools: [WEATHER], tool_choice: { type: 'tool', name: 'other' } },
      /"other" is not one of the tools/,
    );
    // Malformed JSON, raw: the client cannot send it.
    const r = await raw('/v1/messages', { method: 'POST', body: '{"model": ' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^The request body is not valid JSON/) },
    });
  });

  it('counts a message as the reply would evaluate it: the count a too-long prompt is refused with', async () => {
    // Too long for the 512-token context: the refusal says how many tokens the reply would have evaluated.
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hello there '.repeat(300) }];
    const count = await client.messages.countTokens({ model: chatId, system: 'Be brief.', messages });
    const refused: unknown = await client.messages
      .create({ model: chatId, max_tokens: 8, system: 'Be brief.', messages })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    const said = Number(/The prompt is (\d+) tokens/.exec((refused as Error).message)?.[1]);
    expect(count.input_tokens).toBeGreaterThan(512);
    expect(count.input_tokens).toBe(said);
    // Tools are part of the prompt: documented, they add tokens.
    const withTools = await client.messages.countTokens({ model: toolId, messages, tools: [WEATHER] });
    const without = await client.messages.countTokens({ model: toolId, messages });
    expect(withTools.input_tokens).toBeGreaterThan(without.input_tokens);
  });

  it("answers unknown routes under /v1/messages with a 404 in Anthropic's shape", async () => {
    const get = await raw('/v1/messages');
    expect(get.status).toBe(404);
    expect(JSON.parse(get.text)).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const other = await raw('/v1/nothing');
    expect(JSON.parse(other.text).error.message).toMatch(/\/v1\/messages/);
  });

  it('answers a full queue with 503 overloaded_error and Retry-After', async () => {
    const engine = serverEngine();
    const original = engine.turn;
    engine.turn = (() =>
      Promise.reject(
        new AppError('unavailable', 'The model is busy: try again shortly.', { details: { retryAfter: 2 } }),
      )) as typeof engine.turn;
    try {
      const r = await raw('/v1/messages', {
        method: 'POST',
        body: JSON.stringify({ model: chatId, ...hello, stream: true }),
      });
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('2');
      expect(JSON.parse(r.text)).toEqual({
        type: 'error',
        error: { type: 'overloaded_error', message: 'The model is busy: try again shortly.' },
      });
    } finally {
      engine.turn = original;
    }
  });

  it('a mid-stream failure ends the stream with an error event and no message_stop', async () => {
    const engine = serverEngine();
    const original = engine.turn;
    // The real engine streams its reply, then the turn fails (as a model that crashes before it ends would).
    engine.turn = async function (this: unknown, ...args: never[]) {
      await original.apply(this, args);
      throw new AppError('internal', 'The model stopped answering.');
    } as typeof engine.turn;
    try {
      const r = await raw('/v1/messages', {
        method: 'POST',
        body: JSON.stringify({ model: chatId, ...hello, max_tokens: 64, stream: true }),
      });
      expect(r.status).toBe(200);
      const evs = events(r.text);
      expect(evs[0].event).toBe('message_start');
      expect(evs.some((e) => e.event === 'content_block_delta')).toBe(true);
      expect(evs.at(-1)).toEqual({
        event: 'error',
        data: { type: 'error', error: { type: 'api_error', message: 'The model stopped answering.' } },
      });
      expect(evs.some((e) => e.event === 'message_stop')).toBe(false);
    } finally {
      engine.turn = original;
    }
  });

  it('stops the generation when the client goes away mid-stream, and the model answers the next request', async () => {
    const engine = serverEngine();
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
      const stream = client.messages.stream({
        model: loopId,
        max_tokens: 100_000,
        messages: [{ role: 'user', content: 'hello' }],
      });
      let text = '';
      stream.on('text', (d) => {
        text += d;
        if (text.includes('yes')) stream.abort();
      });
      await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
      expect(text.trim()).toBe('yes');
      await expect.poll(() => seen?.aborted).toBe(true);
      // The engine's turn ends as stopped, not by running on to the end of the context.
      expect(await outcome).toBe('aborted');
    } finally {
      engine.turn = original;
    }
    // The model's sequence is free again: the next request on it is answered.
    const next = await client.messages.create({
      model: loopId,
      max_tokens: 3,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(next.stop_reason).toBe('max_tokens');
    expect((next.content[0] as Anthropic.TextBlock).text.trim()).toBe('yes no yes');
  });
});
