import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';

/** The chat's model picker: only models that complete text, with the loaded ones marked. */
describe('chat.models against the Ollama fixture', () => {
  let ollama: OllamaFixture;
  let app: TestApp;

  beforeAll(async () => {
    ollama = await startOllamaFixture({
      models: [
        fixtureModel('llama3.2'),
        fixtureModel('nomic-embed-text', { family: 'nomic-bert', parameter_size: '137M' }),
        fixtureModel('qwen3:8b', { family: 'qwen3' }),
        fixtureModel('old-model'),
      ],
    });
    // What Ollama's /api/show says: an embedding model has no `completion`; an older Ollama says nothing.
    ollama.setShow('nomic-embed-text', { capabilities: ['embedding'] });
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools', 'thinking'] });
    ollama.setShow('old-model', { capabilities: [] });
    ollama.load(fixtureModel('qwen3:8b', { family: 'qwen3' }));
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url } });
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
  });

  it('leaves embedding-only models out and marks the loaded one', async () => {
    const { models } = await app.client.call('chat.models', {});
    expect(models.map((m) => m.name).sort()).toEqual(['llama3.2:latest', 'old-model:latest', 'qwen3:8b']);
    expect(models.filter((m) => m.running).map((m) => m.name)).toEqual(['qwen3:8b']);
    expect(models.find((m) => m.name === 'qwen3:8b')?.capabilities).toEqual(['completion', 'tools', 'thinking']);
  });

  it('still lists the models when /api/ps fails, and fails as ollama.list does when /api/tags fails', async () => {
    ollama.failWith('/api/ps', 500, { times: 1 });
    const { models } = await app.client.call('chat.models', {});
    expect(models).toHaveLength(3);
    expect(models.every((m) => !m.running)).toBe(true);

    ollama.failWith('/api/tags', 502, { times: 1 });
    const err = await app.client.call('chat.models', {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'upstream', status: 502 });
  });
});
