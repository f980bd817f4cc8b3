import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '@shared/contract/chat-events';
import { AppError } from '@shared/errors';
import { startRouterFixture, words, type RouterFixture } from '../fixtures/router';
import { closedPort } from '../helpers/ports';
import { startTestApp, type TestApp } from '../helpers/app';

const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';

describe('provider chat through @huggingface/inference against the router fixture', () => {
  let router: RouterFixture;
  let app: TestApp;

  beforeAll(async () => {
    router = await startRouterFixture();
    app = await startTestApp({
      // The router address is set outside the page, so the token is bound to it.
      env: { HF_TOKEN: 'hf_testTokenValue9876', HUBDESK_ROUTER_URL: router.url },
      chat: { retryBaseMs: 5, providerTimeoutMs: 1_000 },
    });
    await app.client.call('settings.update', { billTo: 'acme-org' });
  });
  afterAll(async () => {
    await app?.close();
    await router?.stop();
  });
  beforeEach(() => {
    router.clearFaults();
    router.requests.length = 0;
    router.chunkIntervalMs = 1;
    router.script = (req) => ({
      content: words(`Router says: ${String(req.messages?.at(-1)?.content ?? '')}`),
    });
  });

  const newConv = (provider = 'auto') =>
    app.client.call('chat.create', { backend: 'provider', model: MODEL, provider, system: 'Be brief.' });

  async function send(id: string, content: string) {
    const events: ChatEvent[] = [];
    const h = app.client.stream('chat.send', { id, content }, (evs) => events.push(...evs));
    try {
      return { result: await h.result, events, error: undefined };
    } catch (e) {
      return { result: undefined, events, error: e as AppError };
    }
  }

  it('streams the reply over SSE, sends the token, the bill-to header, the model and the system prompt', async () => {
    const conv = await newConv();
    const { result, events, error } = await send(conv.id, 'hello there');
    expect(error).toBeUndefined();
    const reply = result!.messages.at(-1)!;
    expect(reply).toMatchObject({ role: 'assistant', status: 'complete', content: 'Router says: hello there' });
    expect(reply.figures).toMatchObject({ doneReason: 'stop', promptTokens: 12, evalTokens: 4 });
    expect(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => (e as { content?: string }).content)
        .join(''),
    ).toBe('Router says: hello there');
    const req = router.requestsTo('/v1/chat/completions')[0];
    expect(req.headers.authorization).toBe('Bearer hf_testTokenValue9876');
    expect(req.headers['x-hf-bill-to']).toBe('acme-org');
    expect(req.body).toMatchObject({
      model: MODEL,
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello there' },
      ],
    });
    const saved = await app.client.call('chat.get', { id: conv.id });
    expect(saved.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'hello there', 'complete'],
      ['assistant', 'Router says: hello there', 'complete'],
    ]);
  });

  it('pins a provider as model:provider and sends the parameters; reasoning is kept apart from the answer', async () => {
    const conv = await newConv('together');
    await app.client.call('chat.update', {
      id: conv.id,
      patch: { params: { temperature: 0.3, top_p: 0.9, max_tokens: 64, seed: 7, stop: ['END'] } },
    });
    router.script = () => ({ reasoning: ['Let me ', 'think.'], content: ['Hi', '!'] });
    const { result } = await send(conv.id, 'hi');
    expect(result!.messages.at(-1)).toMatchObject({ content: 'Hi!', thinking: 'Let me think.' });
    expect(router.requestsTo('/v1/chat/completions')[0].body).toMatchObject({
      model: `${MODEL}:together`,
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 64,
      seed: 7,
      stop: ['END'],
    });
  });

  const cases: [number, string, RegExp][] = [
    [400, 'invalid_input', /refused as invalid.*messages/],
    [401, 'unauthorized', /^the Hugging Face token was rejected — set it in Settings\.$/i],
    [403, 'forbidden', /may not use .*Inference Providers/],
    [404, 'not_found', /is not available on any provider.*choose another provider/],
    [409, 'conflict', /conflict.*idempotency/],
    [422, 'invalid_input', /could not use these settings.*max_tokens/],
    [429, 'rate_limited', /credits/],
    [500, 'upstream', /HTTP 500/],
    [502, 'upstream', /HTTP 502/],
    [503, 'unavailable', /unavailable right now/],
    [504, 'timeout', /timed out/],
  ];
  for (const [status, code, message] of cases) {
    it(`HTTP ${status} ends in an actionable ${code} error and is kept in the transcript`, async () => {
      const conv = await newConv();
      // Enough failures to exhaust the retries of the retried statuses.
      router.failWith(status, { times: 3 });
      const { error } = await send(conv.id, 'question');
      expect(error).toBeInstanceOf(AppError);
      expect(error!.code).toBe(code);
      expect(error!.status).toBe(status);
      expect(error!.message).toMatch(message);
      const retried = [429, 502, 503, 504].includes(status);
      expect(router.requestsTo('/v1/chat/completions')).toHaveLength(retried ? 3 : 1);
      const saved = await app.client.call('chat.get', { id: conv.id });
      expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(saved.messages[1]).toMatchObject({ status: 'error', error: { code, status } });
    });
  }

  it('a 503 before the first token is retried with back-off and then succeeds', async () => {
    const conv = await newConv();
    router.failWith(503, { times: 2 });
    const { result, events } = await send(conv.id, 'again');
    expect(result!.messages.at(-1)!.content).toBe('Router says: again');
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      { type: 'retry', attempt: 2, waitMs: 5, reason: 'HTTP 503' },
      { type: 'retry', attempt: 3, waitMs: 10, reason: 'HTTP 503' },
    ]);
    expect(router.requestsTo('/v1/chat/completions')).toHaveLength(3);
  });

  it('an error after tokens arrived is not retried; the partial answer is kept', async () => {
    const conv = await newConv();
    router.script = () => ({
      content: ['Partial ', 'answer ', 'lost ', 'here'],
      errorAfter: { chunks: 3, message: 'overloaded' },
    });
    const { error } = await send(conv.id, 'go');
    expect(error!.code).toBe('upstream');
    expect(error!.message).toMatch(/overloaded/);
    expect(router.requestsTo('/v1/chat/completions')).toHaveLength(1);
    const saved = await app.client.call('chat.get', { id: conv.id });
    expect(saved.messages[1]).toMatchObject({ status: 'error', content: 'Partial answer ' });
  });

  it('a connection dropped mid-stream keeps the partial answer', async () => {
    const conv = await newConv();
    router.script = () => ({ content: ['one ', 'two ', 'three ', 'four'] });
    router.fault('/v1/chat/completions', { cutAfter: 3, times: 1 });
    const { error } = await send(conv.id, 'go');
    expect(error!.code).toBe('unavailable');
    const saved = await app.client.call('chat.get', { id: conv.id });
    expect(saved.messages[1]).toMatchObject({ status: 'error', content: 'one two ' });
  });

  it('no Hugging Face token says where to set it', async () => {
    const bare = await startTestApp({});
    try {
      await bare.client.call('settings.update', { routerUrl: router.url });
      const conv = await bare.client.call('chat.create', { backend: 'provider', model: MODEL });
      const h = bare.client.stream('chat.send', { id: conv.id, content: 'hi' }, () => {});
      await expect(h.result).rejects.toMatchObject({
        code: 'unauthorized',
        message: expect.stringMatching(/Settings/),
      });
      expect(router.requestsTo('/v1/chat/completions')).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });

  it('a router that cannot be reached, or never answers, ends in a clear error', async () => {
    const down = await startTestApp({
      env: { HF_TOKEN: 'hf_testTokenValue9876', HUBDESK_ROUTER_URL: `http://127.0.0.1:${await closedPort()}` },
      chat: { retryBaseMs: 5, providerTimeoutMs: 1_000 },
    });
    try {
      const c = await down.client.call('chat.create', { backend: 'provider', model: MODEL });
      const h = down.client.stream('chat.send', { id: c.id, content: 'hi' }, () => {});
      await expect(h.result).rejects.toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/Cannot reach the inference router/),
      });
    } finally {
      await down.close();
    }
    const conv = await newConv();
    router.fault('/v1/chat/completions', { hang: true, times: 1 });
    const { error } = await send(conv.id, 'hi again');
    expect(error!.code).toBe('timeout');
    expect(error!.message).toMatch(/did not answer within 1 s/);
  });

  it('"Open as code" gives the router snippets with the messages, provider and parameters', async () => {
    const conv = await newConv('together');
    await app.client.call('chat.update', { id: conv.id, patch: { params: { temperature: 0.4, max_tokens: 99 } } });
    await send(conv.id, 'code me');
    const { snippets } = await app.client.call('chat.code', { id: conv.id });
    expect(snippets.length).toBeGreaterThan(0);
    const py = snippets.find((s) => s.language === 'python')!;
    expect(py.content).toContain(MODEL);
    expect(py.content).toContain('code me');
    expect(py.content).not.toContain('Router says');
    expect(py.content).toContain('Be brief.');
    expect(py.content).toMatch(/temperature.{0,4}0\.4/);
    expect(py.content).not.toContain('hf_testTokenValue9876');
  });

  it('stop (abort) mid-stream keeps the partial answer, marked stopped', async () => {
    const conv = await newConv();
    router.chunkIntervalMs = 30;
    router.script = () => ({ content: Array.from({ length: 200 }, (_, i) => `w${i} `) });
    let seen = '';
    const h = app.client.stream('chat.send', { id: conv.id, content: 'long' }, (evs) => {
      for (const e of evs) if (e.type === 'delta') seen += e.content ?? '';
    });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(10);
    h.cancel();
    await expect(h.result).rejects.toMatchObject({ code: 'aborted' });
    await expect
      .poll(async () => (await app.client.call('chat.get', { id: conv.id })).messages[1]?.status)
      .toBe('stopped');
    const saved = await app.client.call('chat.get', { id: conv.id });
    expect(saved.messages[1].content.startsWith(seen.slice(0, 10))).toBe(true);
    expect(saved.messages[1].content.length).toBeGreaterThan(0);
    await expect.poll(() => router.requestsTo('/v1/chat/completions')[0].closedEarly).toBe(true);
  });
});
