import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replyActionOf } from '@shared/reply-action';
import type { AppError } from '@shared/errors';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startRouterFixture, words, type RouterFixture } from '../fixtures/router';
import { startTestApp, type TestApp } from '../helpers/app';

/** Failed replies, Ollama and the router, speak one vocabulary: what happened, what to do, and a button. */
describe('errors that say what to do (fixtures answer as the real servers do)', () => {
  let ollama: OllamaFixture;
  let router: RouterFixture;
  let app: TestApp;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    router = await startRouterFixture();
    app = await startTestApp({
      env: { OLLAMA_HOST: ollama.url, HF_TOKEN: 'hf_testTokenValue9876' },
      chat: { retryBaseMs: 5, providerTimeoutMs: 2_000 },
    });
    await app.client.call('settings.update', { routerUrl: router.url });
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
    await router?.stop();
  });
  beforeEach(() => {
    router.clearFaults();
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = () => ({ content: tokens('one two three four five six') });
    router.script = () => ({ content: words('one two three') });
  });

  async function fail(init: Record<string, unknown>): Promise<{ error: AppError; id: string }> {
    const { id } = await app.client.call('chat.create', init as never);
    const h = app.client.stream('chat.send', { id, content: 'hi' }, () => {});
    const error = await h.result.then(
      () => undefined,
      (e: AppError) => e,
    );
    expect(error, 'the reply should have failed').toBeDefined();
    return { error: error!, id };
  }

  it('model not found → "Pull <model>"', async () => {
    const { error } = await fail({ model: 'qwen3:0.6b' });
    expect(error.message).toBe('qwen3:0.6b is not on your Ollama server. Pull it, then try again.');
    expect(replyActionOf(error.details)).toEqual({ kind: 'pull', model: 'qwen3:0.6b' });
  });

  it('runner crashed (500) → out of memory advice + Retry', async () => {
    ollama.failWith('/api/chat', 500, { times: 1, message: 'llama runner process has terminated: signal: killed' });
    const { error } = await fail({ model: 'llama3.2' });
    expect(error.message).toMatch(
      /^Ollama's runner stopped — often out of memory; try a smaller quant or a shorter context/,
    );
    expect(replyActionOf(error.details)).toEqual({ kind: 'retry' });
  });

  it('connection lost mid-reply → the partial reply is kept + Retry', async () => {
    ollama.chunkIntervalMs = 5;
    ollama.streamFault('/api/chat', { cutAfter: 3, times: 1 });
    const { error, id } = await fail({ model: 'llama3.2' });
    expect(error.message).toBe('Ollama stopped answering mid-reply; the partial reply is kept.');
    expect(replyActionOf(error.details)).toEqual({ kind: 'retry' });
    const { messages } = await app.client.call('chat.get', { id });
    expect(messages[1]).toMatchObject({ status: 'error', content: expect.stringMatching(/^one /) });
  });

  it('an error line mid-stream (HTTP 200) shows the error text, never "HTTP 200"', async () => {
    ollama.chatScript = () => ({
      content: tokens('one two three'),
      error: { afterChunks: 2, message: 'model runner crashed' },
    });
    const ollamaErr = await fail({ model: 'llama3.2' });
    expect(ollamaErr.error.message).toMatch(/model runner crashed/);
    expect(ollamaErr.error.message).not.toMatch(/HTTP 200/);
    router.script = () => ({ content: words('one two three four'), errorAfter: { chunks: 2, message: 'overloaded' } });
    const routerErr = await fail({ backend: 'provider', model: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(routerErr.error.message).toMatch(/overloaded/);
    expect(routerErr.error.message).not.toMatch(/HTTP 200/);
  });

  it('402 from the router → "Your Hugging Face credits are used up" + billing', async () => {
    router.failWith(402, { times: 1 });
    const { error } = await fail({ backend: 'provider', model: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(error.message).toMatch(/^Your Hugging Face credits are used up/);
    expect(replyActionOf(error.details)).toEqual({ kind: 'billing', url: 'https://huggingface.co/settings/billing' });
  });
});
