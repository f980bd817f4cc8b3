import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppError } from '@shared/errors';
import { replyActionOf } from '@shared/reply-action';
import type { FixtureServer } from '../fixtures/http-fixture';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import {
  startHtmlServer,
  startOpenAIServer,
  type OpenAIFlavor,
  type OpenAIServerFixture,
} from '../fixtures/openai-server';
import { words } from '../fixtures/router';
import { closedPort } from '../helpers/ports';
import { startTestApp, type TestApp } from '../helpers/app';

const CHAT = '/v1/chat/completions';
const flavors: OpenAIFlavor[] = ['llama.cpp', 'vllm', 'lmstudio'];

/**
 * Chat with the user's OpenAI-compatible endpoints through the real layers (the typed client over HTTP, the router,
 * the chat service and its endpoint engine), against a fixture that answers as llama-server, vLLM and LM Studio do.
 */
describe('chat with an OpenAI-compatible endpoint (llama.cpp, vLLM, LM Studio)', () => {
  const servers = {} as Record<OpenAIFlavor, OpenAIServerFixture>;
  const endpointOf = {} as Record<OpenAIFlavor, string>;
  let app: TestApp;

  beforeAll(async () => {
    for (const f of flavors) servers[f] = await startOpenAIServer(f);
    app = await startTestApp({
      chat: { endpointTimeoutMs: 1_000, maxToolRounds: 3, toolTimeoutMs: 5_000 },
      mcp: { connectTimeoutMs: 5_000 },
    });
    for (const f of flavors) {
      const { endpoint } = await app.client.call('endpoints.save', {
        name: `My ${f}`,
        preset: f === 'llama.cpp' ? 'llama.cpp' : f,
        baseUrl: servers[f].url,
      });
      endpointOf[f] = endpoint.id;
    }
    const view = await app.client.call('mcp.config.save', { text: mcpConfigText({ fixture: stdioEntry() }) });
    expect(view.errors).toEqual([]);
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all(flavors.map((f) => servers[f]?.stop()));
  });
  beforeEach(() => {
    for (const f of flavors) {
      const s = servers[f];
      s.clearFaults();
      s.requests.length = 0;
      s.chunkIntervalMs = 1;
      s.script = (req) => ({ content: words(`Echo: ${String(req.messages?.at(-1)?.content ?? '')}`) });
    }
  });

  const modelOf = (f: OpenAIFlavor) => servers[f].models[0].id;
  const newConv = (f: OpenAIFlavor, extra: Partial<ConversationMeta> = {}) =>
    app.client.call('chat.create', {
      backend: 'endpoint',
      endpoint: endpointOf[f],
      model: modelOf(f),
      system: 'Be brief.',
      ...extra,
    });

  /** Sends a message; tool calls waiting for approval are approved once. */
  async function send(id: string, content: string) {
    const events: ChatEvent[] = [];
    const asked: string[] = [];
    const answers: Promise<unknown>[] = [];
    const h = app.client.stream('chat.send', { id, content }, (evs) => {
      events.push(...evs);
      for (const e of evs)
        if (e.type === 'message' && e.message.role === 'tool' && e.message.toolState === 'approval') {
          asked.push(e.message.toolName!);
          answers.push(app.client.call('chat.toolDecision', { id, messageId: e.message.id, decision: 'once' }));
        }
    });
    try {
      const result = await h.result;
      await Promise.all(answers);
      return { result, events, asked, error: undefined };
    } catch (e) {
      return { result: undefined, events, asked, error: e as AppError };
    }
  }
  const saved = async (id: string) => (await app.client.call('chat.get', { id })).messages;
  const deltas = (events: ChatEvent[], key: 'content' | 'thinking') =>
    events
      .filter((e) => e.type === 'delta')
      .map((e) => (e as { content?: string; thinking?: string })[key] ?? '')
      .join('');

  for (const f of flavors) {
    describe(f, () => {
      it('streams the answer with its thinking apart, asks for usage, and keeps the reply', async () => {
        const conv = await newConv(f);
        servers[f].script = () => ({ reasoning: ['Let me ', 'think.'], content: ['Hi', ' there', '!'] });
        const { result, events, error } = await send(conv.id, 'hello');
        expect(error).toBeUndefined();
        const reply = result!.messages.at(-1)!;
        expect(reply).toMatchObject({ role: 'assistant', status: 'complete', content: 'Hi there!' });
        expect(reply.thinking).toBe('Let me think.');
        expect(deltas(events, 'content')).toBe('Hi there!');
        expect(deltas(events, 'thinking')).toBe('Let me think.');
        const req = servers[f].requestsTo(CHAT)[0];
        expect(req.body).toMatchObject({
          model: modelOf(f),
          stream: true,
          stream_options: { include_usage: true },
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'hello' },
          ],
        });
        expect((await saved(conv.id)).map((m) => [m.role, m.content, m.status])).toEqual([
          ['user', 'hello', 'complete'],
          ['assistant', 'Hi there!', 'complete'],
        ]);
      });

      it('keeps the speed of the reply: the server’s own figures when it gives them, else measured', async () => {
        const conv = await newConv(f);
        servers[f].script = () => ({ content: words('one two three four five') });
        const { result } = await send(conv.id, 'count to five please');
        const figures = result!.messages.at(-1)!.figures!;
        // The fixture's prompt: 9 tokens of template and one per word ("Be brief." and the question).
        expect(figures).toMatchObject({ doneReason: 'stop', promptTokens: 15, evalTokens: 5 });
        expect(figures.ttftMs).toBeGreaterThan(0);
        expect(figures.totalMs).toBeGreaterThanOrEqual(figures.ttftMs!);
        if (f === 'llama.cpp') {
          // llama.cpp's `timings`: the fixture's server generates at 50 tokens/s and reads the prompt at 400.
          expect(figures).toMatchObject({ source: 'server', tokensPerSecond: 50, promptTokensPerSecond: 400 });
        } else {
          expect(figures.source).toBe('measured');
          expect(figures.tokensPerSecond).toBeGreaterThan(0);
          expect(figures.promptTokensPerSecond).toBeGreaterThan(0);
        }
        expect((await saved(conv.id)).at(-1)!.figures).toEqual(figures);
      });

      it('runs tool calls streamed in fragments, after approval, and answers them by id', async () => {
        const conv = await newConv(f, { toolSources: ['fixture'] });
        servers[f].script = (req) =>
          req.messages?.some((m) => m.role === 'tool')
            ? { content: words('The sum is 42.') }
            : { content: [], tool_calls: [{ name: 'add', arguments: '{"a": 2, "b": 40}' }], argumentChunk: 3 };
        const { result, asked, error } = await send(conv.id, 'add them');
        expect(error).toBeUndefined();
        expect(asked).toEqual(['add']);
        const [first, second] = servers[f].requestsTo(CHAT).map((r) => r.body as Record<string, unknown>);
        expect((first.tools as { function: { name: string } }[]).map((t) => t.function.name)).toContain('add');
        const call = result!.messages.find((m) => m.role === 'assistant')!.toolCalls![0];
        expect(call).toMatchObject({ name: 'add', arguments: { a: 2, b: 40 } });
        expect(call.id).toBeTruthy();
        expect((second.messages as unknown[]).slice(-1)).toEqual([
          { role: 'tool', tool_call_id: call.id, content: '42' },
        ]);
        expect(result!.messages.at(-1)!.content).toBe('The sum is 42.');
      });

      it('a connection cut mid-stream keeps the text so far, says so and offers Retry', async () => {
        const conv = await newConv(f);
        servers[f].script = () => ({ content: ['one ', 'two ', 'three ', 'four'] });
        // The first event is the role delta: three events in, two words have been sent.
        servers[f].fault(CHAT, { cutAfter: 3, times: 1 });
        const { error } = await send(conv.id, 'go');
        expect(error!.code).toBe('unavailable');
        expect(error!.message).toBe(
          `The connection to My ${f} was lost in the middle of the reply; the text so far is kept. Check that the server is still running, then retry.`,
        );
        expect(replyActionOf(error!.details)).toEqual({ kind: 'retry' });
        expect((await saved(conv.id))[1]).toMatchObject({ status: 'error', content: 'one two ' });
      });

      it('an error event mid-stream (a 500 inside a 200) keeps the text so far with the server’s words', async () => {
        const conv = await newConv(f);
        servers[f].script = () => ({
          content: ['Partial ', 'answer ', 'lost ', 'here'],
          errorAfter: { chunks: 3, message: 'CUDA error: out of memory' },
        });
        const { error } = await send(conv.id, 'go');
        expect(error!.code).toBe('upstream');
        expect(error!.message).toMatch(/^My .+ stopped with an error \(CUDA error: out of memory\)\. The text so far/);
        expect(error!.message).not.toMatch(/HTTP 200/);
        expect(servers[f].requestsTo(CHAT)).toHaveLength(1);
        expect((await saved(conv.id))[1]).toMatchObject({ status: 'error', content: 'Partial answer ' });
      });

      it('stop mid-stream keeps the text, marked stopped, and closes the request', async () => {
        const conv = await newConv(f);
        servers[f].chunkIntervalMs = 30;
        servers[f].script = () => ({ content: Array.from({ length: 200 }, (_, i) => `w${i} `) });
        let seen = '';
        const h = app.client.stream('chat.send', { id: conv.id, content: 'long' }, (evs) => {
          for (const e of evs) if (e.type === 'delta') seen += e.content ?? '';
        });
        await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(10);
        h.cancel();
        await expect(h.result).rejects.toMatchObject({ code: 'aborted' });
        await expect.poll(async () => (await saved(conv.id))[1]?.status).toBe('stopped');
        const reply = (await saved(conv.id))[1];
        expect(reply.content.startsWith(seen.slice(0, 10))).toBe(true);
        await expect.poll(() => servers[f].requestsTo(CHAT)[0].closedEarly).toBe(true);
      });
    });
  }

  it('a server that refuses the request without its key says to enter the key (the text names the endpoint)', async () => {
    const locked = await startOpenAIServer('vllm', { apiKey: 'sk-server-key-1234' });
    try {
      const { endpoint } = await app.client.call('endpoints.save', {
        name: 'Locked vLLM',
        preset: 'vllm',
        // With /v1 as typed: the doctor cannot tell it without the key.
        baseUrl: `${locked.url}/v1`,
      });
      const conv = await app.client.call('chat.create', {
        backend: 'endpoint',
        endpoint: endpoint.id,
        model: 'Qwen/Qwen3-8B',
      });
      const { error } = await send(conv.id, 'hi');
      expect(error!.code).toBe('unauthorized');
      expect(error!.message).toMatch(
        /^Locked vLLM refused the request: it needs an API key.*\(HTTP 401 \(Unauthorized\)\)/,
      );
      expect(error!.message).toMatch(/Settings → Endpoints/);
    } finally {
      await locked.stop();
    }
  });

  it('an unknown model (404), an address that answers HTML, and nothing listening: each says what to do', async () => {
    const conv = await newConv('vllm', { model: 'no/such-model' });
    const notFound = await send(conv.id, 'hi');
    expect(notFound.error!.code).toBe('not_found');
    expect(notFound.error!.message).toMatch(
      /^My vllm has no chat for no\/such-model at .*Choose a model the server lists/,
    );

    const html: FixtureServer = await startHtmlServer();
    try {
      const { endpoint } = await app.client.call('endpoints.save', {
        name: 'Web UI',
        preset: 'other',
        baseUrl: html.url,
      });
      const c = await app.client.call('chat.create', { backend: 'endpoint', endpoint: endpoint.id, model: 'm' });
      const { error } = await send(c.id, 'hi');
      expect(error!.code).toBe('upstream');
      expect(error!.message).toMatch(/did not answer like an OpenAI-compatible API \(it sent text\/html\)/);
      expect(error!.message).not.toMatch(/<html/i);
    } finally {
      await html.stop();
    }

    const url = `http://127.0.0.1:${await closedPort()}`;
    const { endpoint } = await app.client.call('endpoints.save', { name: 'Dead', preset: 'llama.cpp', baseUrl: url });
    const dead = await app.client.call('chat.create', { backend: 'endpoint', endpoint: endpoint.id, model: 'm' });
    const { error } = await send(dead.id, 'hi');
    expect(error!.code).toBe('unavailable');
    expect(error!.message).toMatch(
      /^Nothing is listening at http:\/\/127\.0\.0\.1:\d+.*: start the server, or check the address in Settings → Endpoints\.$/,
    );
    expect(replyActionOf(error!.details)).toEqual({ kind: 'retry' });
  });

  it('the thinking switch reaches the server as the chat template’s enable_thinking, with the parameters', async () => {
    const conv = await newConv('vllm', { params: { think: false, temperature: 0.2, max_tokens: 50, num_ctx: 4096 } });
    await send(conv.id, 'quick');
    const body = servers.vllm.requestsTo(CHAT)[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ chat_template_kwargs: { enable_thinking: false }, temperature: 0.2, max_tokens: 50 });
    // The context length is the server's to set: not a request field.
    expect(body).not.toHaveProperty('num_ctx');
  });

  it('a server that refuses tools says to turn them off (llama.cpp without --jinja)', async () => {
    const conv = await newConv('llama.cpp', { toolSources: ['fixture'] });
    servers['llama.cpp'].failWith(500, {
      body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } },
    });
    const { error } = await send(conv.id, 'add');
    expect(error!.code).toBe('upstream');
    expect(error!.message).toMatch(
      /^My llama\.cpp failed \(HTTP 500 \(tools param requires --jinja flag\)\).*turn this conversation's tools off/,
    );
    expect(servers['llama.cpp'].requestsTo(CHAT)).toHaveLength(1);
  });

  it('a redirect to another origin carries no key: the chat request there has no Authorization', async () => {
    const keyed = await startOpenAIServer('llama.cpp', { apiKey: 'sk-moved-secret-4321' });
    const elsewhere = await startOpenAIServer('llama.cpp');
    try {
      const { endpoint } = await app.client.call('endpoints.save', {
        name: 'Moved',
        preset: 'llama.cpp',
        baseUrl: `${keyed.url}/v1`,
        apiKey: 'sk-moved-secret-4321',
      });
      const conv = await app.client.call('chat.create', { backend: 'endpoint', endpoint: endpoint.id, model: 'x' });
      keyed.redirectTo(elsewhere.url);
      elsewhere.requests.length = 0;
      const { error } = await send(conv.id, 'hi');
      expect(error).toBeDefined();
      expect(keyed.requestsTo(CHAT).at(-1)!.headers.authorization).toBe('Bearer sk-moved-secret-4321');
      const there = elsewhere.requests.filter((r) => r.path === CHAT);
      expect(there.length).toBeGreaterThan(0);
      for (const r of there) expect(r.headers.authorization).toBeUndefined();
    } finally {
      await Promise.all([keyed.stop(), elsewhere.stop()]);
    }
  });

  it('a removed endpoint is said before anything is written or sent', async () => {
    const { endpoint } = await app.client.call('endpoints.save', {
      name: 'Short-lived',
      preset: 'llama.cpp',
      baseUrl: servers['llama.cpp'].url,
    });
    const conv = await app.client.call('chat.create', { backend: 'endpoint', endpoint: endpoint.id, model: 'x' });
    await app.client.call('endpoints.remove', { id: endpoint.id });
    // The doctor's one-token chat on save is not the conversation's.
    servers['llama.cpp'].requests.length = 0;
    const { error } = await send(conv.id, 'hi');
    expect(error).toMatchObject({
      code: 'not_found',
      message: "This conversation's endpoint was removed: choose another engine in the chat settings.",
    });
    expect(await saved(conv.id)).toEqual([]);
    expect(servers['llama.cpp'].requestsTo(CHAT)).toHaveLength(0);
    expect(await app.client.call('chat.capabilities', { id: conv.id })).toEqual({ capabilities: [] });
  });

  it('switching a conversation to an endpoint, or to another endpoint, leaves the model to be chosen', async () => {
    const conv = await app.client.call('chat.create', { backend: 'ollama', model: 'llama3.2:1b' });
    const moved = await app.client.call('chat.update', {
      id: conv.id,
      patch: { backend: 'endpoint', endpoint: endpointOf.vllm },
    });
    expect(moved).toMatchObject({ backend: 'endpoint', endpoint: endpointOf.vllm, model: '' });
    const chosen = await app.client.call('chat.update', { id: conv.id, patch: { model: 'Qwen/Qwen3-8B' } });
    expect(chosen.model).toBe('Qwen/Qwen3-8B');
    const other = await app.client.call('chat.update', { id: conv.id, patch: { endpoint: endpointOf.lmstudio } });
    expect(other.model).toBe('');
    // Any id the server lists is fine on an endpoint, a file name or a Hub-like id alike.
    const kept = await app.client.call('chat.update', {
      id: conv.id,
      patch: { endpoint: endpointOf['llama.cpp'], model: 'Qwen3-0.6B-Q8_0.gguf' },
    });
    expect(kept.model).toBe('Qwen3-0.6B-Q8_0.gguf');
  });

  it('"Open as code" writes the OpenAI clients with the endpoint’s base URL, and never its key', async () => {
    const keyed = await startOpenAIServer('llama.cpp', { apiKey: 'sk-local-secret-5678' });
    try {
      const { endpoint } = await app.client.call('endpoints.save', {
        name: 'Keyed llama',
        preset: 'llama.cpp',
        baseUrl: keyed.url,
        apiKey: 'sk-local-secret-5678',
      });
      const conv = await app.client.call('chat.create', {
        backend: 'endpoint',
        endpoint: endpoint.id,
        model: 'Qwen3-0.6B-Q8_0.gguf',
        system: 'Be brief.',
        params: { temperature: 0.4, max_tokens: 99 },
      });
      const { result } = await send(conv.id, 'code me');
      expect(result!.messages.at(-1)!.content).toBe('Router says: code me');
      expect(keyed.requestsTo(CHAT)[0].headers.authorization).toBe('Bearer sk-local-secret-5678');
      const { snippets, notice } = await app.client.call('chat.code', { id: conv.id });
      expect(snippets.map((s) => `${s.language}/${s.client}`)).toEqual(['python/openai', 'js/openai', 'sh/curl']);
      for (const s of snippets) {
        expect(s.content).toContain(`${endpoint.baseUrl}`);
        expect(s.content).toContain('Qwen3-0.6B-Q8_0.gguf');
        expect(s.content).toContain('code me');
        expect(s.content).toContain('Be brief.');
        expect(s.content).not.toContain('Router says');
        expect(s.content).not.toContain('sk-local-secret-5678');
        expect(s.content).toContain('OPENAI_API_KEY');
        expect(s.content).not.toMatch(/\{\{|\{%|\n\n\n/);
      }
      const py = snippets[0].content;
      expect(py).toContain(`base_url="${endpoint.baseUrl}"`);
      expect(py).toContain('temperature=0.4,');
      expect(py).toContain('max_tokens=99,');
      expect(snippets[1].content).toContain('\ttemperature: 0.4,');
      expect(notice).toMatch(/OPENAI_API_KEY/);
      // The Markdown export names the engine by the endpoint's name.
      const md = await app.client.call('chat.export', { id: conv.id, format: 'markdown' });
      expect(md.text).toContain('- Model: `Qwen3-0.6B-Q8_0.gguf` (endpoint Keyed llama)');
    } finally {
      await keyed.stop();
    }
  });

  it('messages from a finished reply hold what the page needs: no figures on an error', async () => {
    const conv = await newConv('vllm');
    servers.vllm.failWith(503, { times: 1 });
    const { error } = await send(conv.id, 'hi');
    expect(error!.code).toBe('unavailable');
    expect(error!.message).toMatch(/^My vllm is not ready.*loading the model/);
    // No silent retry on a local server: one request, and Retry offered.
    expect(servers.vllm.requestsTo(CHAT)).toHaveLength(1);
    expect(replyActionOf(error!.details)).toEqual({ kind: 'retry' });
    const reply = (await saved(conv.id))[1] as ChatMessage;
    expect(reply.figures).toBeUndefined();
  });
});
