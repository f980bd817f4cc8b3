import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startRouterFixture, words, type RouterFixture } from '../fixtures/router';
import { startTestApp, type TestApp } from '../helpers/app';

/** The speed under every reply, on the engines that were there before endpoints: Ollama's own, the router's measured. */
describe('per-reply figures on Ollama and the HF router', () => {
  let ollama: OllamaFixture;
  let router: RouterFixture;
  let app: TestApp;

  beforeAll(async () => {
    [ollama, router] = await Promise.all([
      startOllamaFixture({ models: [fixtureModel('llama3.2')] }),
      startRouterFixture(),
    ]);
    app = await startTestApp({
      env: { OLLAMA_HOST: ollama.url, HF_TOKEN: 'hf_figuresTest1234', HUBDESK_ROUTER_URL: router.url },
    });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([ollama?.stop(), router?.stop()]);
  });

  const reply = async (init: Record<string, unknown>) => {
    const { id } = await app.client.call('chat.create', init as never);
    const { messages } = await app.client.stream('chat.send', { id, content: 'hello there' }, () => {}).result;
    return messages.at(-1)!;
  };

  it("Ollama: its own counts and durations (prompt speed too), labelled the server's, with the time to first token", async () => {
    ollama.chatScript = () => ({ content: tokens('one two three') });
    const { figures } = await reply({ model: 'llama3.2' });
    expect(figures).toMatchObject({ source: 'server', doneReason: 'stop' });
    // The fixture's last line: prompt_eval_count over 0.342546 s, eval_count over 4.535599 s.
    expect(figures!.promptTokensPerSecond).toBeCloseTo(figures!.promptTokens! / 0.342546, 6);
    expect(figures!.tokensPerSecond).toBeCloseTo(figures!.evalTokens! / 4.535599, 6);
    expect(figures!.loadMs).toBeCloseTo(1.334875, 6);
    expect(figures!.ttftMs).toBeGreaterThan(0);
  });

  it('the router: usage counts, with the speeds and the time to first token measured in main', async () => {
    router.script = () => ({ content: words('one two three four') });
    const { figures } = await reply({ backend: 'provider', model: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(figures).toMatchObject({ source: 'measured', doneReason: 'stop', promptTokens: 12, evalTokens: 4 });
    expect(figures!.ttftMs).toBeGreaterThan(0);
    expect(figures!.totalMs).toBeGreaterThanOrEqual(figures!.ttftMs!);
    expect(figures!.tokensPerSecond).toBeGreaterThan(0);
    expect(router.requestsTo('/v1/chat/completions')[0].body).toMatchObject({
      stream_options: { include_usage: true },
    });
  });
});
