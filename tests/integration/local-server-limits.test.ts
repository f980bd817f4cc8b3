import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { tinyGguf } from '../fixtures/tiny-gguf';

/**
 * Issue #38 item 6 (F8): a request that cannot fit the model's context is refused from cheap counts, before anything
 * is templated, tokenized or loaded, and the counts a request may carry are capped in words. While the biggest such
 * request is refused, the app's other calls are not held up.
 */
let t: LocalServerApp;
let model = '';
let context = 0;

beforeAll(async () => {
  t = await startLocalServerApp({ 'tiny.gguf': tinyGguf() });
  model = t.ids['tiny.gguf'];
  await t.app.client.call('local.server.set', { enabled: true, port: t.port, key: KEY });
  const { models } = await t.app.client.call('local.models', {});
  context = models.find((m) => m.id === model)!.plan!.contextSize;
});
afterAll(() => t?.close());

const post = (path: string, body: unknown) => rawRequest(t.port, path, { method: 'POST', body: JSON.stringify(body) });
const errorOf = (text: string) =>
  (JSON.parse(text) as { error: { message: string; code?: string; type: string } }).error;

/** The slowest answer to the app's own calls (through the web mode, as the page makes them) while `work` runs. */
async function slowestCallDuring(work: Promise<unknown>): Promise<number> {
  let done = false;
  void work.finally(() => (done = true));
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    await t.app.client.call('local.server.status', {});
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((r) => setTimeout(r, 5));
  }
  await work;
  return slowest;
}

describe('the local server refuses before working (issue #38 item 6)', () => {
  it('a 9 MB message is refused as longer than the context, from its length, without holding up other calls', async () => {
    const big = 'word '.repeat(9 * 1024 * 200);
    let answer: Awaited<ReturnType<typeof post>> | undefined;
    const started = performance.now();
    const slowest = await slowestCallDuring(
      post('/v1/chat/completions', { model, messages: [{ role: 'user', content: big }] }).then((r) => (answer = r)),
    );
    expect(answer!.status).toBe(400);
    const err = errorOf(answer!.text);
    expect(err.code).toBe('context_length_exceeded');
    expect(err.message).toMatch(
      new RegExp(
        `^The request is 9,216,\\d{3} characters long, so at least 1,152,\\d{3} tokens, but ${model} has a context of ${context.toLocaleString('en-US')} tokens`,
      ),
    );
    expect(performance.now() - started).toBeLessThan(3000);
    expect(slowest).toBeLessThan(200);
    // Nothing was loaded to refuse it.
    expect((await t.app.client.call('local.status', {})).loaded).toEqual([]);
  });

  it('Anthropic and text completions are refused the same way', async () => {
    const long = 'x'.repeat(context * 8 + 100);
    const a = await post('/v1/messages', { model, max_tokens: 10, messages: [{ role: 'user', content: long }] });
    expect(a.status).toBe(400);
    expect(JSON.parse(a.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^The request is .* characters long/) },
    });
    const c = await post('/v1/completions', { model, prompt: long });
    expect(c.status).toBe(400);
    expect(errorOf(c.text).code).toBe('context_length_exceeded');
  });

  it('10,000 short messages are taken cheaply; 10,001 are refused in words', async () => {
    const messages = Array.from({ length: 10_001 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'hi' }));
    const over = await post('/v1/chat/completions', { model, messages });
    expect(over.status).toBe(400);
    expect(errorOf(over.text).message).toBe("'messages': send at most 10,000 messages");
    const a = await post('/v1/messages', { model, max_tokens: 10, messages });
    expect(errorOf(a.text).message).toMatch(/messages.*send at most 10,000 messages/);
    // 10,000 are as long as 8 characters a token lets 4 K tokens be: refused from the count, not tokenized.
    const started = performance.now();
    const slowest = await slowestCallDuring(
      post('/v1/chat/completions', { model, messages: messages.slice(0, 10_000) }),
    );
    expect(performance.now() - started).toBeLessThan(3000);
    expect(slowest).toBeLessThan(200);
  });

  it('129 tools, or one tool larger than 100,000 characters, are refused in words', async () => {
    const tool = (i: number, description = 'does a thing') => ({
      type: 'function',
      function: { name: `t${i}`, description, parameters: { type: 'object', properties: {} } },
    });
    const many = await post('/v1/chat/completions', {
      model,
      messages: [{ role: 'user', content: 'hi' }],
      tools: Array.from({ length: 129 }, (_, i) => tool(i)),
    });
    expect(errorOf(many.text).message).toBe("'tools': send at most 128 tools");
    const huge = await post('/v1/chat/completions', {
      model,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [
        {
          ...tool(0),
          function: { ...tool(0).function, parameters: { type: 'object', description: 'p'.repeat(100_001) } },
        },
      ],
    });
    expect(huge.status).toBe(400);
    expect(errorOf(huge.text).message).toBe(
      "'tools.0': a tool may be at most 100,000 characters, its description and schema included",
    );
    const anthropic = await post('/v1/messages', {
      model,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'big', input_schema: { type: 'object', description: 'p'.repeat(100_001) } }],
    });
    expect(errorOf(anthropic.text).message).toMatch(/a tool may be at most 100,000 characters/);
  });
});
