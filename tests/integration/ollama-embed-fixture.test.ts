import { Ollama } from 'ollama';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from '../fixtures/embedding';
import { embeddingModel, fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * The Ollama fixture's /api/embed as the documents tests and benches use it: ollama-js and raw HTTP for the wire
 * (fields, truncate, dimensions, errors), and HubDesk's own `ollama.embed` for meaning-like vectors end to end.
 */
describe('Ollama fixture: embeddings', () => {
  let fx: OllamaFixture;
  let client: Ollama;
  let app: TestApp;
  beforeAll(async () => {
    fx = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    fx.addEmbeddingModel();
    client = new Ollama({ host: fx.url });
    app = await startTestApp({ env: { OLLAMA_HOST: fx.url } });
  });
  afterAll(async () => {
    await app.close();
    await fx.stop();
  });

  const raw = async (path: string, body: unknown) => {
    const r = await fetch(fx.url + path, { method: 'POST', body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };

  it('lists nomic-embed-text as an embedding model with its 768 dimensions', async () => {
    const { models } = await client.list();
    expect(models.find((m) => m.name === 'nomic-embed-text:latest')).toMatchObject({
      size: 274302450,
      details: { family: 'nomic-bert', families: ['nomic-bert'], parameter_size: '137M', quantization_level: 'F16' },
    });
    const show = await client.show({ model: 'nomic-embed-text' });
    expect(show.capabilities).toEqual(['embedding']);
    expect(show.model_info).toMatchObject({ 'nomic-bert.embedding_length': 768, 'nomic-bert.context_length': 2048 });
    expect(embeddingModel('mxbai-embed-large').name).toBe('mxbai-embed-large:latest');
  });

  it('answers /api/embed with a vector per input, the durations and the token count', async () => {
    const r = await raw('/api/embed', { model: 'nomic-embed-text', input: ['buy a large car', 'read a poem'] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      'embeddings',
      'load_duration',
      'model',
      'prompt_eval_count',
      'total_duration',
    ]);
    const e = r.body.embeddings as number[][];
    expect(e.map((v) => v.length)).toEqual([768, 768]);
    expect(r.body.prompt_eval_count).toBe(7);
    const one = await client.embed({ model: 'nomic-embed-text', input: 'buy a large car' });
    expect(one.embeddings[0]).toEqual(e[0]);
    const sized = await client.embed({ model: 'nomic-embed-text', input: 'purchase big automobiles', dimensions: 256 });
    expect(sized.embeddings[0]).toHaveLength(256);
    expect(await raw('/api/embed', { model: 'nomic-embed-text', input: [] })).toEqual({
      status: 200,
      body: { model: 'nomic-embed-text', embeddings: [] },
    });
    const legacy = await raw('/api/embeddings', { model: 'nomic-embed-text', prompt: 'buy a large car' });
    expect(legacy.body.embedding).toEqual(e[0]);
    expect((await raw('/api/embeddings', { model: 'nomic-embed-text', prompt: '' })).body).toEqual({ embedding: [] });
    const ps = await client.ps();
    expect(ps.models.map((m) => m.name)).toContain('nomic-embed-text:latest');
  });

  it('cuts an input over the context unless truncate is false, which Ollama refuses with 400', async () => {
    const long = Array.from({ length: 2100 }, (_, i) => `word${i}`).join(' ');
    const cut = await raw('/api/embed', { model: 'nomic-embed-text', input: long });
    expect(cut.body.prompt_eval_count).toBe(2048);
    const head = await raw('/api/embed', {
      model: 'nomic-embed-text',
      input: long.split(' ').slice(0, 2048).join(' '),
    });
    expect((cut.body.embeddings as number[][])[0]).toEqual((head.body.embeddings as number[][])[0]);
    expect(await raw('/api/embed', { model: 'nomic-embed-text', input: long, truncate: false })).toEqual({
      status: 400,
      body: { error: 'input exceeds maximum context length' },
    });
    const small = await raw('/api/embed', { model: 'nomic-embed-text', input: 'a b c', options: { num_ctx: 2 } });
    expect(small.body.prompt_eval_count).toBe(2);
  });

  it("answers Ollama's errors: a missing model, a bad input type, no model", async () => {
    expect(await raw('/api/embed', { model: 'ghost', input: 'x' })).toEqual({
      status: 404,
      body: { error: "model 'ghost' not found" },
    });
    expect(await raw('/api/embeddings', { model: 'ghost', prompt: 'x' })).toEqual({
      status: 404,
      body: { error: "model 'ghost' not found" },
    });
    expect(await raw('/api/embed', { model: 'nomic-embed-text', input: [1, 2] })).toEqual({
      status: 400,
      body: { error: 'invalid input type' },
    });
    expect(await raw('/api/embed', { model: 'nomic-embed-text', input: { text: 'x' } })).toEqual({
      status: 400,
      body: { error: 'invalid input type' },
    });
    expect(await raw('/api/embed', { input: 'x' })).toEqual({ status: 400, body: { error: 'model is required' } });
  });

  it("gives meaning-like vectors through HubDesk's ollama.embed: a reworded question lands near its fact", async () => {
    const texts = [
      'The warehouse in Tromsø stores 4,812 crates of cloudberry jam.',
      'How many boxes of cloudberry preserve are kept in the Tromsø depot?',
      'The committee reviewed the quarterly figures before the deadline.',
    ];
    const { embeddings } = await app.client.call('ollama.embed', { model: 'nomic-embed-text', input: texts });
    const [fact, question, unrelated] = embeddings;
    expect(fact).toHaveLength(768);
    expect(cosine(fact, question)).toBeGreaterThan(cosine(fact, unrelated) + 0.3);
    expect(fx.requestsTo('/api/embed').at(-1)?.body).toMatchObject({ model: 'nomic-embed-text', input: texts });
  });
});
