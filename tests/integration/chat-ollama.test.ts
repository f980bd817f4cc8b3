import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppError } from '@shared/errors';
import { defaultChatScript, fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startOllamaWebFixture, type OllamaWebFixture } from '../fixtures/ollama-web';
import { join } from 'node:path';
import { openDb } from '../../electron/main/services/chat/storage/db-open';
import { startTestApp, type TestApp } from '../helpers/app';
import { webToolsAllowed } from '../helpers/tools';

describe('Ollama chat against the Ollama fixture', () => {
  let ollama: OllamaFixture;
  let web: OllamaWebFixture;
  let app: TestApp;

  beforeAll(async () => {
    ollama = await startOllamaFixture({
      models: [fixtureModel('llama3.2'), fixtureModel('qwen3:8b', { family: 'qwen3' })],
    });
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools', 'thinking'] });
    web = await startOllamaWebFixture();
    app = await startTestApp({
      env: { OLLAMA_HOST: ollama.url, OLLAMA_API_KEY: web.key },
      chat: { webBase: web.url, maxToolRounds: 2 },
    });
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
    await web?.stop();
  });
  beforeEach(() => {
    ollama.requests.length = 0;
    web.requests.length = 0;
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = defaultChatScript;
  });

  async function run(name: 'chat.send' | 'chat.regenerate', input: never) {
    const events: ChatEvent[] = [];
    const h = app.client.stream(name, input, (evs) => events.push(...evs));
    try {
      return { result: await h.result, events, error: undefined as AppError | undefined };
    } catch (e) {
      return { result: undefined, events, error: e as AppError };
    }
  }
  const send = (id: string, content: string, images?: string[]) =>
    run('chat.send', { id, content, ...(images ? { images } : {}) } as never);
  const messages = async (id: string): Promise<ChatMessage[]> => (await app.client.call('chat.get', { id })).messages;

  it('streams thinking apart from the answer, sends system prompt and options, keeps the final figures', async () => {
    const conv = await app.client.call('chat.create', {
      model: 'qwen3:8b',
      system: 'You are terse.',
      params: { temperature: 0.2, top_p: 0.8, max_tokens: 100, num_ctx: 8192, seed: 42, stop: ['###'], think: true },
    });
    ollama.chatScript = () => ({ thinking: ['Hmm, ', 'greeting.'], content: tokens('Hello to you too.') });
    const { result, events, error } = await send(conv.id, 'Hello');
    expect(error).toBeUndefined();
    const deltas = events.filter((e): e is Extract<ChatEvent, { type: 'delta' }> => e.type === 'delta');
    expect(deltas.map((d) => d.thinking ?? '').join('')).toBe('Hmm, greeting.');
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('Hello to you too.');
    const reply = result!.messages.at(-1)!;
    expect(reply).toMatchObject({ status: 'complete', content: 'Hello to you too.', thinking: 'Hmm, greeting.' });
    expect(reply.figures!.evalTokens).toBeGreaterThan(0);
    expect(reply.figures!.tokensPerSecond).toBeGreaterThan(0);
    expect(reply.figures!.totalMs).toBeGreaterThan(0);
    expect(reply.figures!.loadMs).toBeGreaterThan(0);
    expect(reply.figures!.doneReason).toBe('stop');
    const body = ollama.requestsTo('/api/chat')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'qwen3:8b',
      stream: true,
      think: true,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello' },
      ],
      options: { temperature: 0.2, top_p: 0.8, num_predict: 100, num_ctx: 8192, seed: 42, stop: ['###'] },
    });
    expect(body.tools).toBeUndefined();
    expect((await messages(conv.id)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Hello to you too.'],
    ]);
  });

  it('shows tool calls the model makes (no tool sources on: nothing offered, the calls are kept and not run)', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    ollama.chatScript = () => ({ content: [], tool_calls: [{ name: 'get_weather', arguments: { city: 'Tokyo' } }] });
    const { result } = await send(conv.id, 'weather?');
    const reply = result!.messages.at(-1)!;
    expect(reply.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_[a-z0-9]{8}$/), name: 'get_weather', arguments: { city: 'Tokyo' } },
    ]);
    expect(reply.notice).toBe(
      'The model asked for get_weather, but no tools were offered in this reply: nothing was run.',
    );
  });

  it('sends attached images with the user message', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    await send(conv.id, 'what is this?', ['aGVsbG8=']);
    const body = ollama.requestsTo('/api/chat')[0].body as { messages: { images?: string[] }[] };
    expect(body.messages.at(-1)!.images).toEqual(['aGVsbG8=']);
  });

  it('stop mid-stream keeps the partial text, marked stopped, and closes the request', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    ollama.chunkIntervalMs = 20;
    ollama.chatScript = () => ({ content: Array.from({ length: 300 }, (_, i) => `t${i} `) });
    let seen = '';
    const h = app.client.stream('chat.send', { id: conv.id, content: 'go on' }, (evs) => {
      for (const e of evs) if (e.type === 'delta') seen += e.content ?? '';
    });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(12);
    h.cancel();
    await expect(h.result).rejects.toMatchObject({ code: 'aborted' });
    await expect.poll(async () => (await messages(conv.id))[1]?.status).toBe('stopped');
    const reply = (await messages(conv.id))[1];
    expect(reply.content.startsWith(seen.slice(0, 12))).toBe(true);
    expect(reply.content).toMatch(/^t0 t1 t2 /);
    await expect.poll(() => ollama.requestsTo('/api/chat')[0].closedEarly).toBe(true);
  });

  it('checkpoints the streaming reply to the database while it streams (crash loses at most ~1 s)', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    ollama.chunkIntervalMs = 25;
    ollama.chatScript = () => ({ content: Array.from({ length: 120 }, (_, i) => `c${i} `) });
    // A second connection, as another process would read the file: only committed data is visible to it.
    const onDisk = openDb(join(app.dataDir, 'chats.sqlite'));
    const lastReply = () =>
      onDisk
        .prepare(
          `SELECT content, status FROM messages WHERE conversation_id = ? AND role = 'assistant' ORDER BY seq DESC`,
        )
        .get(conv.id) as { content: string; status: string } | undefined;
    const h = app.client.stream('chat.send', { id: conv.id, content: 'stream' }, () => {});
    // Before the reply ends, the text streamed so far is already committed.
    await expect.poll(() => lastReply()?.content.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(6);
    const partial = lastReply()!;
    onDisk.close();
    expect(partial.status).toBe('streaming');
    expect(partial.content).toMatch(/^c0 c1 /);
    const res = await h.result;
    expect(res.messages.at(-1)!.content).toBe(Array.from({ length: 120 }, (_, i) => `c${i} `).join(''));
  });

  it('one reply at a time per conversation; deleting it mid-stream ends the reply without harm', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    ollama.chunkIntervalMs = 20;
    ollama.chatScript = () => ({ content: Array.from({ length: 100 }, (_, i) => `d${i} `) });
    let deltas = 0;
    const h = app.client.stream('chat.send', { id: conv.id, content: 'one' }, (evs) => {
      deltas += evs.filter((e) => e.type === 'delta').length;
    });
    await expect.poll(() => deltas, { timeout: 10_000 }).toBeGreaterThan(3);
    const second = app.client.stream('chat.send', { id: conv.id, content: 'two' }, () => {});
    await expect(second.result).rejects.toMatchObject({ code: 'conflict' });
    // Deleting is the person's doing: the reply is stopped first and ends quietly, as a Stop does.
    const ended = h.result.catch((e: unknown) => e);
    await app.client.call('chat.delete', { id: conv.id });
    expect(await ended).toMatchObject({ code: 'aborted' });
    // Main is still healthy, and the conversation comes back with what had been saved.
    const back = await app.client.call('chat.restore', { id: conv.id });
    expect(back.id).toBe(conv.id);
    const list = await messages(conv.id);
    expect(list.map((m) => m.content)[0]).toBe('one');
  });

  it('an Ollama error mid-stream keeps the partial answer and the error', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    ollama.chatScript = () => ({
      content: tokens('one two three four'),
      error: { afterChunks: 2, message: 'model runner crashed' },
    });
    const { error } = await send(conv.id, 'hi');
    expect(error!.message).toMatch(/model runner crashed/);
    const reply = (await messages(conv.id))[1];
    expect(reply).toMatchObject({ status: 'error', content: 'one two', error: { message: 'model runner crashed' } });
  });

  it('an unknown model says so', async () => {
    const conv = await app.client.call('chat.create', { model: 'nope' });
    const { error } = await send(conv.id, 'hi');
    expect(error).toMatchObject({
      code: 'not_found',
      message: 'nope is not on your Ollama server. Pull it, then try again.',
      details: { action: { kind: 'pull', model: 'nope' }, original: "model 'nope' not found" },
    });
  });

  it('regenerate replaces the last reply; edit (save only) and edit and regenerate', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    let n = 0;
    ollama.chatScript = (req) => ({ content: tokens(`Answer ${++n} to ${req.messages!.at(-1)!.content}`) });
    await send(conv.id, 'first');
    await send(conv.id, 'second');
    const regen = await run('chat.regenerate', { id: conv.id } as never);
    expect(regen.events.some((e) => e.type === 'cut')).toBe(true);
    let list = await messages(conv.id);
    expect(list.map((m) => m.content)).toEqual(['first', 'Answer 1 to first', 'second', 'Answer 3 to second']);
    // The regenerated request carried the history without the replaced reply.
    const body = ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { content: string }[] };
    expect(body.messages.map((m) => m.content)).toEqual(['first', 'Answer 1 to first', 'second']);

    // "Save": a new version of the question, not answered yet (the reply stays with the text it answered).
    const saved = await app.client.call('chat.edit', { id: conv.id, messageId: list[2].id, content: 'second, edited' });
    expect(saved.content).toBe('second, edited');
    list = await messages(conv.id);
    expect(list.map((m) => m.content)).toEqual(['first', 'Answer 1 to first', 'second, edited']);

    await run('chat.regenerate', { id: conv.id, edit: { messageId: list[0].id, content: 'first, edited' } } as never);
    list = await messages(conv.id);
    expect(list.map((m) => m.content)).toEqual(['first, edited', 'Answer 4 to first, edited']);
  });

  it('"Open as code" turns the conversation into runnable ollama / curl snippets', async () => {
    const conv = await app.client.call('chat.create', { model: 'llama3.2', system: 'Answer in French.' });
    await send(conv.id, 'Bonjour');
    const { snippets } = await app.client.call('chat.code', { id: conv.id });
    expect(snippets.map((s) => s.language).sort()).toEqual(expect.arrayContaining(['js', 'python', 'sh']));
    for (const s of snippets) {
      expect(s.content).toContain('llama3.2');
      expect(s.content).toContain('Answer in French.');
      expect(s.content).toContain('Bonjour');
      // It ends at the last user message, so running it reproduces the last reply.
      expect(s.content).not.toContain('You said');
    }
    expect(snippets.find((s) => s.language === 'sh')!.content).toContain(ollama.url);
  });

  it('"Open as code" carries the conversation\'s parameters into the code', async () => {
    const conv = await app.client.call('chat.create', {
      model: 'llama3.2',
      params: { temperature: 0.2, max_tokens: 128, seed: 7 },
    });
    await send(conv.id, 'Hi');
    const { snippets } = await app.client.call('chat.code', { id: conv.id });
    const py = snippets.find((s) => s.language === 'python' && s.client === 'ollama')!.content;
    expect(py).toContain('"temperature": 0.2');
    expect(py).toContain('"num_predict": 128');
    expect(snippets.find((s) => s.language === 'python' && s.client === 'openai')!.content).toContain('max_tokens=128');
    const curl = snippets.find((s) => s.language === 'sh')!.content;
    expect(JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]).options).toEqual({
      temperature: 0.2,
      num_predict: 128,
      seed: 7,
    });
  });

  describe('web tools', () => {
    const toolConv = async () => {
      const conv = await app.client.call('chat.create', { model: 'qwen3:8b', ...webToolsAllowed });
      return conv;
    };

    it('runs web_search and web_fetch, returns the results as tool messages, and continues', async () => {
      const conv = await toolConv();
      ollama.chatScript = (req) => {
        const tools = (req.messages ?? []).filter((m) => m.role === 'tool');
        if (tools.length === 0)
          return { content: [], tool_calls: [{ name: 'web_search', arguments: { query: 'tokyo weather' } }] };
        if (tools.length === 1)
          return {
            content: [],
            tool_calls: [{ name: 'web_fetch', arguments: { url: 'https://example.com/weather' } }],
          };
        return { content: tokens('It is 21 °C and sunny in Tokyo.') };
      };
      const { result, error } = await send(conv.id, 'Weather in Tokyo?');
      expect(error).toBeUndefined();
      expect(result!.messages.map((m) => [m.role, m.toolName ?? m.toolCalls?.[0]?.name ?? ''])).toEqual([
        ['user', ''],
        ['assistant', 'web_search'],
        ['tool', 'web_search'],
        ['assistant', 'web_fetch'],
        ['tool', 'web_fetch'],
        ['assistant', ''],
      ]);
      expect(result!.messages.at(-1)!.content).toBe('It is 21 °C and sunny in Tokyo.');
      expect(result!.messages[2].content).toContain('Tokyo: 21 °C and sunny. (for \\"tokyo weather\\")');
      expect(result!.messages[4].content).toContain('https://example.com/forecast');
      const first = ollama.requestsTo('/api/chat')[0].body as { tools: { function: { name: string } }[] };
      expect(first.tools.map((t) => t.function.name)).toEqual(['web_search', 'web_fetch']);
      const last = ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { role: string; tool_name?: string }[] };
      expect(last.messages.filter((m) => m.role === 'tool').map((m) => m.tool_name)).toEqual([
        'web_search',
        'web_fetch',
      ]);
      expect(web.requestsTo('/api/web_search')[0].headers.authorization).toBe(`Bearer ${web.key}`);
      expect((await messages(conv.id)).length).toBe(6);
    });

    it('stops offering tools after the bound: the model must answer', async () => {
      const conv = await toolConv();
      ollama.chatScript = (req) =>
        req.tools?.length
          ? { content: [], tool_calls: [{ name: 'web_search', arguments: { query: 'again' } }] }
          : { content: tokens('Giving up searching.') };
      const { result } = await send(conv.id, 'loop forever');
      const chats = ollama.requestsTo('/api/chat');
      expect(chats).toHaveLength(3);
      expect(chats.map((r) => ((r.body as { tools?: unknown[] }).tools ?? []).length)).toEqual([2, 2, 0]);
      expect(web.requestsTo('/api/web_search')).toHaveLength(2);
      expect(result!.messages.at(-1)!.content).toBe('Giving up searching.');
    });

    it('an empty query fails with "Query is required", an empty URL with "URL is required"', async () => {
      const conv = await toolConv();
      ollama.chatScript = (req) => {
        const tools = (req.messages ?? []).filter((m) => m.role === 'tool');
        if (tools.length === 0)
          return {
            content: [],
            tool_calls: [
              { name: 'web_search', arguments: { query: '' } },
              { name: 'web_fetch', arguments: { url: '' } },
            ],
          };
        return { content: tokens('Sorry.') };
      };
      const { result } = await send(conv.id, 'search nothing');
      const toolMsgs = result!.messages.filter((m) => m.role === 'tool');
      expect(toolMsgs.map((m) => [m.toolName, m.status, m.error?.message])).toEqual([
        ['web_search', 'error', 'Query is required'],
        ['web_fetch', 'error', 'URL is required'],
      ]);
      expect(web.requests).toHaveLength(0);
    });

    it('a missing ollama.com key says which setting to fill', async () => {
      const bare = await startTestApp({ env: { OLLAMA_HOST: ollama.url }, chat: { webBase: web.url } });
      try {
        const conv = await bare.client.call('chat.create', { model: 'qwen3:8b', ...webToolsAllowed });
        ollama.chatScript = (req) =>
          (req.messages ?? []).some((m) => m.role === 'tool')
            ? { content: tokens('No key.') }
            : { content: [], tool_calls: [{ name: 'web_search', arguments: { query: 'x' } }] };
        const h = bare.client.stream('chat.send', { id: conv.id, content: 'q' }, () => {});
        const res = await h.result;
        const tool = res.messages.find((m) => m.role === 'tool')!;
        expect(tool.error).toMatchObject({
          code: 'unauthorized',
          message: expect.stringMatching(/Ollama API key.*Settings/),
        });
        expect(web.requests).toHaveLength(0);
      } finally {
        await bare.close();
      }
    });
  });
});
