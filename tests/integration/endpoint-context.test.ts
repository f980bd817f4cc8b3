import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServerFixture } from '../fixtures/openai-server';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/**
 * A server that does not say a model's context length (no /props n_ctx, no max_model_len, no LM Studio
 * max_context_length): the user gives it once, main keeps it per endpoint and model in endpoints.json, and the model
 * list carries it from then on, marked as the user's.
 */
describe('endpoints: the context length the user gives', () => {
  let app: TestApp | undefined;
  let server: OpenAIServerFixture | undefined;
  const dir = tempDir();
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await server?.stop();
  });

  it('LM Studio without max_context_length: unknown, then set, listed as the user’s, and kept after a restart', async () => {
    server = await startOpenAIServer('lmstudio');
    server.models[0].contextUnreported = true;
    app = await startTestApp({ dataDir: dir.path });
    const { endpoint, report } = await app.client.call('endpoints.save', {
      name: 'studio',
      preset: 'lmstudio',
      baseUrl: server.url,
    });
    const model = server.models[0].id;
    expect(report.checks.find((c) => c.name === 'context')).toEqual({
      name: 'context',
      ok: false,
      detail: `The server does not say the context length it runs ${model} with: the chat asks for it once and keeps it.`,
    });
    const before = (await app.client.call('endpoints.models', { id: endpoint.id })).models;
    expect(before.find((m) => m.id === model)!.contextLength).toBeUndefined();
    // The embedding model's context is the server's own.
    expect(before.find((m) => m.id !== model)).toMatchObject({ contextLength: 2048, contextSource: 'server' });

    expect(await app.client.call('endpoints.setContext', { id: endpoint.id, model, contextLength: 8192 })).toEqual({
      saved: true,
    });
    const listed = (await app.client.call('endpoints.models', { id: endpoint.id })).models;
    expect(listed.find((m) => m.id === model)).toMatchObject({ contextLength: 8192, contextSource: 'user' });

    // The services start again on the same data dir: the length is still there.
    await app.close();
    app = await startTestApp({ dataDir: dir.path });
    const again = (await app.client.call('endpoints.models', { id: endpoint.id })).models;
    expect(again.find((m) => m.id === model)).toMatchObject({ contextLength: 8192, contextSource: 'user' });
  });

  it('vLLM without max_model_len: set once; the length the server reports later wins over it', async () => {
    server = await startOpenAIServer('vllm');
    server.models[0].contextUnreported = true;
    app = await startTestApp();
    const { endpoint } = await app.client.call('endpoints.save', { name: 'v', preset: 'vllm', baseUrl: server.url });
    const model = server.models[0].id;
    await app.client.call('endpoints.setContext', { id: endpoint.id, model, contextLength: 16384 });
    expect((await app.client.call('endpoints.models', { id: endpoint.id })).models[0]).toMatchObject({
      id: model,
      contextLength: 16384,
      contextSource: 'user',
    });
    server.models[0].contextUnreported = false;
    expect((await app.client.call('endpoints.models', { id: endpoint.id })).models[0]).toMatchObject({
      contextLength: 32768,
      contextSource: 'server',
    });
  });

  it('refuses a length out of bounds, and an endpoint that is not there', async () => {
    server = await startOpenAIServer('vllm');
    app = await startTestApp();
    const { endpoint } = await app.client.call('endpoints.save', { name: 'v', preset: 'vllm', baseUrl: server.url });
    for (const contextLength of [0, 100, 1.5, 20_000_000])
      await expect(
        app.client.call('endpoints.setContext', { id: endpoint.id, model: 'm', contextLength }),
      ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(
      app.client.call('endpoints.setContext', { id: 'e_gone', model: 'm', contextLength: 4096 }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
