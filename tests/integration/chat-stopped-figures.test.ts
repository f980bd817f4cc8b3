import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startOpenAIServer, type OpenAIServerFixture } from '../fixtures/openai-server';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * A reply stopped (or failed) mid-stream keeps the speed main measured up to there — tokens so far, tok/s, time to
 * first token — labelled measured, on an endpoint and on Ollama alike.
 */
describe('figures of a stopped reply', () => {
  let ollama: OllamaFixture;
  let llama: OpenAIServerFixture;
  let app: TestApp;
  let endpoint: string;

  beforeAll(async () => {
    [ollama, llama] = await Promise.all([
      startOllamaFixture({ models: [fixtureModel('llama3.2')] }),
      startOpenAIServer('llama.cpp'),
    ]);
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url }, chat: { endpointTimeoutMs: 2_000 } });
    endpoint = (await app.client.call('endpoints.save', { name: 'box', preset: 'llama.cpp', baseUrl: llama.url }))
      .endpoint.id;
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([ollama?.stop(), llama?.stop()]);
  });

  /** Sends, stops once some text has arrived, and reads the stopped reply back from main. */
  async function stopMidway(id: string) {
    let seen = '';
    const h = app.client.stream('chat.send', { id, content: 'long please' }, (evs) => {
      for (const e of evs) if (e.type === 'delta') seen += e.content ?? '';
    });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(12);
    h.cancel();
    await expect(h.result).rejects.toMatchObject({ code: 'aborted' });
    await expect.poll(async () => (await app.client.call('chat.get', { id })).messages[1]?.status).toBe('stopped');
    return (await app.client.call('chat.get', { id })).messages[1];
  }

  it('an endpoint: the stopped message keeps the tokens so far, their speed and the time to first token', async () => {
    llama.chunkIntervalMs = 20;
    llama.script = () => ({ content: Array.from({ length: 300 }, (_, i) => `w${i} `) });
    const conv = await app.client.call('chat.create', {
      backend: 'endpoint',
      endpoint,
      model: llama.models[0].id,
    });
    const reply = await stopMidway(conv.id);
    expect(reply.figures).toMatchObject({ source: 'measured' });
    expect(reply.figures!.evalTokens).toBeGreaterThan(0);
    expect(reply.figures!.ttftMs).toBeGreaterThan(0);
    expect(reply.figures!.tokensPerSecond).toBeGreaterThan(0);
  });

  it('an endpoint that fails mid-stream: the error message keeps what was measured up to there', async () => {
    llama.chunkIntervalMs = 1;
    llama.script = () => ({
      content: Array.from({ length: 20 }, (_, i) => `w${i} `),
      errorAfter: { chunks: 6, message: 'CUDA error: out of memory' },
    });
    const conv = await app.client.call('chat.create', { backend: 'endpoint', endpoint, model: llama.models[0].id });
    await expect(app.client.stream('chat.send', { id: conv.id, content: 'go' }, () => {}).result).rejects.toBeTruthy();
    const reply = (await app.client.call('chat.get', { id: conv.id })).messages[1];
    expect(reply).toMatchObject({ status: 'error', figures: { source: 'measured' } });
    // One token per streamed part: as many as the words kept.
    expect(reply.figures!.evalTokens).toBe(reply.content.trim().split(' ').length);
    expect(reply.figures!.ttftMs).toBeGreaterThan(0);
  });

  it('Ollama: the same, measured (Ollama sends its own counts only on its last line)', async () => {
    ollama.chunkIntervalMs = 20;
    ollama.chatScript = () => ({ content: Array.from({ length: 300 }, (_, i) => `t${i} `) });
    const conv = await app.client.call('chat.create', { model: 'llama3.2' });
    const reply = await stopMidway(conv.id);
    expect(reply.figures).toMatchObject({ source: 'measured' });
    expect(reply.figures!.evalTokens).toBeGreaterThan(0);
    expect(reply.figures!.ttftMs).toBeGreaterThan(0);
  });
});
