import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateObject, jsonSchema, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { fimGguf, functionCallGguf, scriptedGguf } from '../fixtures/scripted-gguf';
import { tinyGguf } from '../fixtures/tiny-gguf';

// What other apps ask of the local server beyond plain chat: JSON replies a grammar enforces, tool_choice, honest
// context limits, models loaded on request and described in /v1/models. The real engine on tiny GGUFs, through the
// official openai client and the AI SDK.

let t: LocalServerApp;
let port: number;
let tinyId: string;
let toolId: string;
let chatId: string;
let cityId: string;
let fimId: string;
let client: OpenAI;
let baseURL: string;
const raw = (path: string, opts?: Parameters<typeof rawRequest>[2]) => rawRequest(port, path, opts);

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', maxLength: 12 } },
      required: ['city'],
    },
  },
};
const time = {
  type: 'function' as const,
  function: {
    name: 'get_time',
    description: 'The time in a time zone',
    parameters: { type: 'object', properties: { zone: { enum: ['UTC', 'CET'] } }, required: ['zone'] },
  },
};

beforeAll(async () => {
  t = await startLocalServerApp({
    'tiny-llama.gguf': tinyGguf({ seed: 7 }),
    'weather-tool.gguf': functionCallGguf(),
    'scripted-chat.gguf': scriptedGguf({ script: ['▁Hello', '▁there', '.'] }),
    // Writes {"city": "Paris"} in the grammar's own spacing: each piece is a token the grammar allows in turn.
    'city-json.gguf': scriptedGguf({ script: ['{"city":▁', '"Paris"', '}'] }),
    'fim-coder.gguf': fimGguf(['▁a▁+▁b', ';']),
  });
  port = t.port;
  tinyId = t.ids['tiny-llama.gguf'];
  toolId = t.ids['weather-tool.gguf'];
  chatId = t.ids['scripted-chat.gguf'];
  cityId = t.ids['city-json.gguf'];
  fimId = t.ids['fim-coder.gguf'];
  const s = await t.app.client.call('local.server.set', { enabled: true, port, key: KEY });
  baseURL = s.url!;
  client = new OpenAI({ baseURL, apiKey: KEY, maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

// No free text: a gibberish model's strings would run until max_tokens.
const Person = z.object({
  role: z.enum(['admin', 'user']),
  active: z.boolean(),
  tags: z.array(z.enum(['a', 'b'])).max(2),
});

describe('structured output', () => {
  it('json_schema: a gibberish model still answers JSON that follows the schema', async () => {
    const r = await client.chat.completions.create({
      model: tinyId,
      messages: [{ role: 'user', content: 'Describe a person.' }],
      temperature: 0,
      max_tokens: 120,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'person', strict: true, schema: z.toJSONSchema(Person) as Record<string, unknown> },
      },
    });
    const content = r.choices[0].message.content!;
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(Person.safeParse(JSON.parse(content)).success).toBe(true);
  });

  it('json_object: the reply is a JSON object', async () => {
    const r = await client.chat.completions.create({
      model: cityId,
      messages: [{ role: 'user', content: 'Where?' }],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(JSON.parse(r.choices[0].message.content!)).toEqual({ city: 'Paris' });
  });

  it("the AI SDK's generateObject gets an object its zod schema accepts, in either of its modes", async () => {
    const City = z.object({ city: z.string() });
    for (const supportsStructuredOutputs of [true, false]) {
      const provider = createOpenAICompatible({ name: 'hubdesk', baseURL, apiKey: KEY, supportsStructuredOutputs });
      const { object } = await generateObject({
        model: provider(cityId),
        schema: City,
        prompt: 'Where?',
        temperature: 0,
        maxRetries: 0,
      });
      expect(object).toEqual({ city: 'Paris' });
    }
  });

  it('the grammar holds a model that would write something else to the schema', async () => {
    // The same model, asked for a number: its "{"city": …" is not allowed, so it writes what the grammar lets it.
    const r = await client.chat.completions.create({
      model: cityId,
      messages: [{ role: 'user', content: 'Where?' }],
      temperature: 0,
      max_tokens: 40,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'n', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
      },
    });
    expect(z.object({ ok: z.boolean() }).strict().safeParse(JSON.parse(r.choices[0].message.content!)).success).toBe(
      true,
    );
  });

  it('streams the constrained reply too', async () => {
    const stream = await client.chat.completions.create({
      model: tinyId,
      messages: [{ role: 'user', content: 'A person, please.' }],
      temperature: 0,
      max_tokens: 120,
      stream: true,
      response_format: { type: 'json_schema', json_schema: { name: 'p', schema: z.toJSONSchema(Person) } },
    });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(Person.safeParse(JSON.parse(text)).success).toBe(true);
  });

  it('a schema the grammar cannot enforce is a 400 naming the part, before anything loads', async () => {
    const before = (await t.app.client.call('local.status', {})).loaded.length;
    const r = await raw('/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({
        model: chatId,
        messages: [{ role: 'user', content: 'hi' }],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'x',
            schema: { type: 'object', properties: { age: { type: 'integer', minimum: 18 } } },
          },
        },
      }),
    });
    expect(r.status).toBe(400);
    const err = (JSON.parse(r.text) as { error: { message: string; code: string } }).error;
    expect(err.code).toBe('invalid_schema');
    expect(err.message).toContain("'properties.age.minimum' in response_format.json_schema.schema");
    expect((await t.app.client.call('local.status', {})).loaded.length).toBe(before);
  });
});

describe('tool_choice', () => {
  const ask: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];

  it('a named function is called, with arguments that follow its schema', async () => {
    const r = await client.chat.completions.create({
      model: tinyId,
      messages: ask,
      tools: [weather, time],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
      temperature: 0,
      max_tokens: 60,
    });
    const choice = r.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('get_time');
    expect(['UTC', 'CET']).toContain((JSON.parse(call.function.arguments) as { zone: string }).zone);
  });

  it('"required" makes some call; streamed, its first delta carries index, id, type and name', async () => {
    const stream = await client.chat.completions.create({
      model: tinyId,
      messages: ask,
      tools: [weather, time],
      tool_choice: 'required',
      temperature: 0,
      max_tokens: 60,
      stream: true,
    });
    const deltas: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    let finish: string | null = null;
    let content = '';
    for await (const c of stream) {
      deltas.push(...(c.choices[0]?.delta.tool_calls ?? []));
      content += c.choices[0]?.delta.content ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('tool_calls');
    expect(content).toBe('');
    expect(deltas[0]).toMatchObject({ index: 0, type: 'function', id: expect.any(String) });
    expect(['get_weather', 'get_time']).toContain(deltas[0].function?.name);
    const args = deltas.map((d) => d.function?.arguments ?? '').join('');
    expect(typeof JSON.parse(args)).toBe('object');
  });

  it('"none" answers in text with the tools offered', async () => {
    const r = await client.chat.completions.create({
      model: toolId,
      messages: ask,
      tools: [weather],
      tool_choice: 'none',
      temperature: 0,
      max_tokens: 30,
    });
    expect(r.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(r.choices[0].finish_reason).not.toBe('tool_calls');
  });

  it('"auto" leaves it to the model (this one calls)', async () => {
    const r = await client.chat.completions.create({
      model: toolId,
      messages: ask,
      tools: [weather],
      tool_choice: 'auto',
      temperature: 0,
    });
    expect(r.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
  });

  it("the AI SDK's streamText with tools gets the model's call", async () => {
    const provider = createOpenAICompatible({ name: 'hubdesk', baseURL, apiKey: KEY });
    const result = streamText({
      model: provider(toolId),
      prompt: 'Weather in Paris?',
      temperature: 0,
      maxRetries: 0,
      tools: {
        get_weather: tool({
          description: 'Weather of a city',
          inputSchema: jsonSchema<{ city: string }>(weather.function.parameters as never),
        }),
      },
    });
    const calls = await result.toolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ toolName: 'get_weather', input: { city: 'Paris' } });
  });

  it('a tool_choice naming no offered tool, or asking for a call without tools, is a 400 that says so', async () => {
    const named = await raw('/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({
        model: tinyId,
        messages: ask,
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_stock' } },
      }),
    });
    expect(named.status).toBe(400);
    expect(JSON.parse(named.text)).toMatchObject({
      error: { code: 'invalid_tool_choice', message: expect.stringContaining('"get_stock"') },
    });
    const none = await raw('/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({ model: tinyId, messages: ask, tool_choice: 'required' }),
    });
    expect(none.status).toBe(400);
    expect(none.text).toContain('no tools were sent');
  });
});

describe('honest limits', () => {
  it('a prompt longer than the context is refused with its token count, never cut', async () => {
    // Under the cheap character check (8 characters a token of context), over the context once tokenized: the
    // engine host counts it with the model's template and tokenizer.
    const long = 'hello world '.repeat(300);
    const r = await raw('/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({ model: tinyId, messages: [{ role: 'user', content: long }] }),
    });
    expect(r.status).toBe(400);
    const err = (JSON.parse(r.text) as { error: { message: string; code: string } }).error;
    expect(err.code).toBe('context_length_exceeded');
    const [, prompt, context] = /The prompt is (\d+) tokens, .* a context of (\d+) tokens/.exec(err.message) ?? [];
    expect(Number(context)).toBe(512);
    expect(Number(prompt)).toBeGreaterThan(800);
  });

  it('a reply that reaches the end of the context stops there with "length"', async () => {
    const r = await client.chat.completions.create({
      model: tinyId,
      messages: [{ role: 'user', content: 'hello world '.repeat(27) }],
      temperature: 0,
      max_completion_tokens: 2000,
    });
    expect(r.choices[0].finish_reason).toBe('length');
    expect(r.usage!.prompt_tokens + r.usage!.completion_tokens).toBeLessThanOrEqual(512);
  });
});

describe('models on request', () => {
  it('/v1/models says which models are loaded, their context and what they can do', async () => {
    const list = await raw('/v1/models');
    const data = (JSON.parse(list.text) as { data: Record<string, unknown>[] }).data;
    const tiny = data.find((m) => m.id === tinyId)!;
    expect(tiny).toMatchObject({
      object: 'model',
      type: 'llm',
      loaded: true,
      context_length: 512,
      max_context_length: 512,
      capabilities: expect.arrayContaining(['completion', 'tools']),
    });
  });

  it('ten requests at once for a model not loaded load it once; a ttl unloads it when idle', async () => {
    await t.app.client.call('local.unload', {});
    // The runtime's one way to load in the host (its model loads' `open`): each call is a load.
    const { loads } = t.app.services.local.runtime as unknown as { loads: { open: () => Promise<unknown> } };
    const open = vi.spyOn(loads, 'open');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.chat.completions.create({
          model: chatId,
          messages: [{ role: 'user', content: 'hi' }],
          temperature: 0,
          max_tokens: 4,
          // LM Studio's field, not in OpenAI's types: seconds idle before the model unloads.
          ...{ ttl: 1 },
        }),
      ),
    );
    expect(answers.every((a) => a.choices[0].message.content?.includes('Hello'))).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
    open.mockRestore();
    const status = await t.app.client.call('local.status', {});
    const loaded = status.loaded.find((m) => m.id === chatId);
    expect(loaded?.unloadAt).toBeDefined();
    expect(Date.parse(loaded!.unloadAt!) - Date.now()).toBeLessThanOrEqual(1000);
    await expect
      .poll(async () => (await t.app.client.call('local.status', {})).loaded.some((m) => m.id === chatId), {
        timeout: 5000,
      })
      .toBe(false);
  });
});

describe('/v1/completions', () => {
  it('completes the prompt as it is (no chat template), whole or streamed, with usage', async () => {
    // The scripted model's script starts after a newline: the prompt's own, since no template adds one.
    const r = await client.completions.create({ model: chatId, prompt: 'Greet me:\n', temperature: 0 });
    expect(r.object).toBe('text_completion');
    expect(r.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', logprobs: null });
    expect(r.choices[0].text).toBe(' Hello there.');
    expect(r.usage!.prompt_tokens).toBeGreaterThan(0);
    const stream = await client.completions.create({
      model: chatId,
      prompt: 'Greet me:\n',
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const c of stream) {
      text += c.choices[0]?.text ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
      usage = c.usage ?? usage;
    }
    expect(text).toBe(' Hello there.');
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("stops at max_tokens (OpenAI's default of 16 when not sent) and at a stop string", async () => {
    const cut = await client.completions.create({ model: chatId, prompt: 'x\n', max_tokens: 1, temperature: 0 });
    expect(cut.choices[0]).toMatchObject({ text: ' Hello', finish_reason: 'length' });
    const stopped = await client.completions.create({ model: chatId, prompt: 'x\n', stop: ['there'], temperature: 0 });
    expect(stopped.choices[0]).toMatchObject({ text: ' Hello', finish_reason: 'stop' });
    const loose = await client.completions.create({ model: tinyId, prompt: 'hello', temperature: 0 });
    expect(loose.usage!.completion_tokens).toBeLessThanOrEqual(16);
  });

  it('fills in the middle with suffix, where the model has the tokens for it', async () => {
    const r = await client.completions.create({
      model: fimId,
      prompt: 'function add(a, b) {\n  return',
      suffix: '\n}',
      temperature: 0,
    });
    expect(r.choices[0].text).toBe(' a + b;');
    const refused = await raw('/v1/completions', {
      method: 'POST',
      body: JSON.stringify({ model: chatId, prompt: 'a', suffix: 'b' }),
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('has no fill-in-the-middle tokens');
  });

  it('takes response_format; refuses a prompt longer than the context, echo, best_of and token arrays', async () => {
    const json = await client.completions.create({
      model: cityId,
      prompt: 'Where?\n',
      temperature: 0,
      max_tokens: 30,
      ...{ response_format: { type: 'json_object' } },
    });
    expect(JSON.parse(json.choices[0].text)).toEqual({ city: 'Paris' });
    const bad = async (body: Record<string, unknown>) => {
      const r = await raw('/v1/completions', { method: 'POST', body: JSON.stringify({ model: chatId, ...body }) });
      expect(r.status, r.text).toBe(400);
      return (JSON.parse(r.text) as { error: { message: string; code: string | null } }).error;
    };
    expect((await bad({ prompt: 'hello world '.repeat(400) })).code).toBe('context_length_exceeded');
    expect((await bad({ prompt: 'a', echo: true })).message).toContain('echo is not offered');
    expect((await bad({ prompt: 'a', best_of: 3 })).message).toContain('best_of');
    expect((await bad({ prompt: [1, 2, 3] })).message).toContain('send the prompt as text');
    expect((await bad({ prompt: ['a', 'b'] })).message).toContain('one prompt per request');
  });
});
