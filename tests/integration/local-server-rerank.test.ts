import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, rawRequest, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { rerankerGguf } from '../fixtures/reranker-gguf';
import { tinyGguf } from '../fixtures/tiny-gguf';

// POST /v1/rerank end to end: the real services and the real engine (node-llama-cpp's ranking context) on a tiny BERT
// reranker whose score rises with the query words a document shares (tests/fixtures/reranker-gguf.ts). No Cohere or
// Jina client is installed, so the requests are raw, as those clients send them.

let t: LocalServerApp;
let port: number;
let rerankerId: string;
let chatId: string;

interface Answer {
  id: string;
  model: string;
  object: string;
  results: { index: number; relevance_score: number; document?: { text: string } }[];
  usage: { prompt_tokens: number; total_tokens: number };
}

const post = (path: string, body: unknown) => rawRequest(port, path, { method: 'POST', body: JSON.stringify(body) });
const rerank = async (body: Record<string, unknown>, path = '/v1/rerank') => {
  const r = await post(path, { model: rerankerId, ...body });
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text) as Answer;
};
const errorOf = (r: { text: string }) => (JSON.parse(r.text) as { error: { message: string; code: string } }).error;

// Query words cats, eat, fish (stop words and unknown words never count): the documents share 3, 0, 1, 2, 0 of them.
const QUERY = 'What do cats eat? Fish.';
const DOCS = ['cats eat fish', 'the red car is fast', 'a fish sleeps in the sun', 'my cats eat', 'paris is in france'];

beforeAll(async () => {
  t = await startLocalServerApp({ 'tiny-reranker.gguf': rerankerGguf(), 'tiny-llama.gguf': tinyGguf({ seed: 3 }) });
  port = t.port;
  rerankerId = t.ids['tiny-reranker.gguf'];
  chatId = t.ids['tiny-llama.gguf'];
  await t.app.client.call('local.server.set', { enabled: true, port, key: KEY });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('local server: /v1/rerank over a reranker GGUF', () => {
  it('lists the reranker as a model that reranks and nothing else', async () => {
    const r = await rawRequest(port, '/v1/models');
    const data = (JSON.parse(r.text) as { data: { id: string; type: string; capabilities: string[] }[] }).data;
    expect(data.find((m) => m.id === rerankerId)).toMatchObject({ type: 'rerank', capabilities: ['rerank'] });
    expect(data.find((m) => m.id === chatId)).toMatchObject({ type: 'llm' });
    const lib = await t.app.client.call('local.models', {});
    expect(lib.models.find((m) => m.id === rerankerId)).toMatchObject({ reranker: true, embedding: false });
  });

  it('answers every document, most relevant first, each with its own index', async () => {
    const a = await rerank({ query: QUERY, documents: DOCS });
    expect(a).toMatchObject({ model: rerankerId, object: 'list', id: expect.stringMatching(/^rerank-/) });
    const order = a.results.map((r) => r.index);
    expect(order.slice(0, 3)).toEqual([0, 3, 2]);
    // The two that share nothing score about alike, below the rest.
    expect(order.slice(3).sort()).toEqual([1, 4]);
    const scores = a.results.map((r) => r.relevance_score);
    expect(scores[0]).toBeGreaterThan(scores[1]! + 0.05);
    expect(scores[1]).toBeGreaterThan(scores[2]! + 0.05);
    expect(scores[2]).toBeGreaterThan(scores[3]! + 0.05);
    expect(scores[3]).toBeGreaterThanOrEqual(scores[4]!);
    expect(Math.min(...scores)).toBeGreaterThan(0);
    expect(Math.max(...scores)).toBeLessThan(1);
    expect(a.results[0]).not.toHaveProperty('document');
    expect(a.usage.total_tokens).toBeGreaterThan(DOCS.length * 3);
    expect(a.usage.prompt_tokens).toBe(a.usage.total_tokens);
  });

  it('is deterministic, and a score belongs to its document wherever it is in the list', async () => {
    const a = await rerank({ query: QUERY, documents: DOCS });
    const b = await rerank({ query: QUERY, documents: DOCS });
    expect(b.results).toEqual(a.results);
    const reversed = [...DOCS].reverse();
    const c = await rerank({ query: QUERY, documents: reversed });
    const byText = (x: Answer, docs: string[]) => new Map(x.results.map((r) => [docs[r.index], r.relevance_score]));
    const before = byText(a, DOCS);
    for (const [text, score] of byText(c, reversed)) expect(score).toBeCloseTo(before.get(text)!, 6);
  });

  it('cuts to top_n, returns the documents when asked, and takes {text} objects and /rerank', async () => {
    const a = await rerank(
      { query: QUERY, documents: DOCS.map((text) => ({ text })), top_n: 2, return_documents: true },
      '/rerank',
    );
    expect(a.results).toEqual([
      { index: 0, relevance_score: expect.any(Number), document: { text: DOCS[0] } },
      { index: 3, relevance_score: expect.any(Number), document: { text: DOCS[3] } },
    ]);
    const all = await rerank({ query: QUERY, documents: DOCS, top_n: 50 });
    expect(all.results).toHaveLength(DOCS.length);
  });

  it('refuses bad input with a 400 that names the field', async () => {
    for (const [body, field] of [
      [{ query: 'x', documents: [] }, 'documents'],
      [{ query: 'x' }, 'documents'],
      [{ documents: ['a'] }, 'query'],
      [{ query: 'x', documents: [1] }, 'documents.0'],
      [{ query: 'x', documents: ['a'], top_n: 0 }, 'top_n'],
      [{ query: 'x', documents: Array.from({ length: 1001 }, () => 'a') }, 'documents'],
    ] as const) {
      const r = await post('/v1/rerank', { model: rerankerId, ...body });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorOf(r).message).toMatch(new RegExp(`^'${field.replace('.', '\\.')}'`));
    }
  });

  it('refuses a document longer than the context in words (400, never a 500), naming it', async () => {
    const long = 'cats '.repeat(600);
    const r = await post('/v1/rerank', { model: rerankerId, query: 'cats', documents: ['cats', long] });
    expect(r.status).toBe(400);
    expect(errorOf(r)).toMatchObject({ code: 'exceed_context_size_error' });
    expect(errorOf(r).message).toMatch(/Document 1 and the query are \d+ tokens, more than the 512 tokens/);
    // The model is still there for the next request.
    await rerank({ query: QUERY, documents: DOCS.slice(0, 2) });
  });

  it('says which models can rerank when asked with another, and 404s an unknown one', async () => {
    const chat = await post('/v1/rerank', { model: chatId, query: 'x', documents: ['a'] });
    expect(chat.status).toBe(400);
    expect(errorOf(chat).message).toBe(
      `"${chatId}" is not a reranker: the models that can rerank are "${rerankerId}".`,
    );
    const unknown = await post('/v1/rerank', { model: 'nobody/nothing/x.gguf', query: 'x', documents: ['a'] });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('model_not_found');
  });

  it('refuses the reranker for chat, completions and embeddings, pointing to /v1/rerank', async () => {
    const chat = await post('/v1/chat/completions', { model: rerankerId, messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.status).toBe(400);
    expect(errorOf(chat).message).toMatch(/is a reranker: .*\/v1\/rerank/);
    const completion = await post('/v1/completions', { model: rerankerId, prompt: 'hi' });
    expect(completion.status).toBe(400);
    const embedding = await post('/v1/embeddings', { model: rerankerId, input: 'hi' });
    expect(embedding.status).toBe(400);
    expect(errorOf(embedding).message).toMatch(/is a reranker: .*\/v1\/rerank/);
  });

  it('logs each request with its model and tokens', async () => {
    const a = await rerank({ query: QUERY, documents: DOCS.slice(0, 1) });
    const entries = () => t.app.services.local.server.log.list();
    await expect.poll(() => entries().find((e) => e.path === '/v1/rerank' && e.status === 200)).toBeTruthy();
    const entry = entries().find((e) => e.path === '/v1/rerank' && e.status === 200)!;
    expect(entry).toMatchObject({ model: rerankerId, promptTokens: a.usage.prompt_tokens });
  });
});
