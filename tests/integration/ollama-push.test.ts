import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '@shared/errors';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';

/** Push and create through the real router and OllamaService, against the Ollama fixture (issue #25 item 10). */
describe('ollama push and create', () => {
  let fx: OllamaFixture;
  let app: TestApp;

  beforeAll(async () => {
    fx = await startOllamaFixture({ models: [fixtureModel('llama3.2'), fixtureModel('me/llama3.2')] });
    app = await startTestApp({ env: { OLLAMA_HOST: fx.url }, ollama: { timeoutMs: 2000 } });
  });
  afterAll(async () => {
    await app.close();
    await fx.stop();
  });
  afterEach(() => {
    fx.clearFaults();
    fx.absentRoutes.clear();
  });

  async function run(name: 'ollama.push' | 'ollama.create', input: object) {
    const statuses: string[] = [];
    const h = app.client.stream(name, input as never, (batch) =>
      statuses.push(...(batch as { status: string }[]).map((e) => e.status)),
    );
    const outcome = await h.result.then(
      () => ({ ok: true as const }),
      (e: unknown) => ({ ok: false as const, error: e as AppError }),
    );
    return { statuses, ...outcome };
  }

  it('refuses a name without a namespace of the user before any request, and says to copy it first', async () => {
    for (const model of ['llama3.2', 'library/llama3.2:latest', 'registry.ollama.ai/library/llama3.2']) {
      const r = await run('ollama.push', { model });
      expect(r.ok, model).toBe(false);
      expect(!r.ok && r.error.code).toBe('invalid_input');
      expect(!r.ok && r.error.message).toContain('Copy it as <your-ollama-user>/llama3.2:latest first');
    }
    expect(fx.requestsTo('/api/push')).toEqual([]);
  });

  it('pushes a namespaced name with Ollama’s progress lines', async () => {
    const r = await run('ollama.push', { model: 'me/llama3.2' });
    expect(r.ok).toBe(true);
    expect(r.statuses[0]).toBe('retrieving manifest');
    expect(r.statuses).toContain('starting upload');
    expect(r.statuses.slice(-2)).toEqual(['pushing manifest', 'success']);
    expect(fx.requestsTo('/api/push').at(-1)?.body).toEqual({ name: 'me/llama3.2', stream: true });
  });

  it('an Ollama without /api/push or /api/create (gin’s 404) is said to be too old, with what to do', async () => {
    fx.absentRoutes.add('POST /api/push').add('POST /api/create');
    const push = await run('ollama.push', { model: 'me/llama3.2' });
    expect(fx.requestsTo('/api/push').length).toBeGreaterThan(0);
    expect(!push.ok && push.error).toMatchObject({
      code: 'unavailable',
      message: `Ollama 0.12.3 at ${fx.url} cannot push models (it has no /api/push): it is likely too old. Update Ollama (https://ollama.com/download), then try again.`,
    });
    expect(!push.ok && push.error.status).toBeUndefined();
    const create = await run('ollama.create', { model: 'pirate', from: 'llama3.2', system: 'Arr.' });
    expect(!create.ok && create.error.message).toMatch(/^Ollama 0\.12\.3 at .* cannot create models \(it has no/);

    // Ollama's own 404 (a model it does not have) keeps its text.
    fx.absentRoutes.clear();
    fx.failWith('/api/create', 404, { times: 1 });
    const missing = await run('ollama.create', { model: 'pirate', from: 'ghost' });
    expect(!missing.ok && missing.error).toMatchObject({ code: 'not_found', message: "model 'pirate' not found" });
  });
});
