import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/** Attaching is enough: the installed embedding model is taken, or the base says why indexing cannot go on. */
describe('indexing without a chosen embedding model (the real services, the Ollama fixture)', () => {
  let fx: OllamaFixture;
  let dir: ReturnType<typeof tempDir>;
  const apps: TestApp[] = [];
  const open = async (host: string) => {
    const app = await startTestApp({
      dataDir: join(dir.path, `data-${apps.length}`),
      env: { OLLAMA_HOST: host },
      documents: { startDelayMs: 60_000 },
    });
    apps.push(app);
    return app.client;
  };
  const file = () => join(dir.path, 'notes.md');

  beforeAll(async () => {
    fx = await startOllamaFixture({
      models: [fixtureModel('llama3.2'), fixtureModel('nomic-embed-text', { family: 'nomic-bert' })],
    });
    dir = tempDir('hubdesk-docs-auto-');
    writeFileSync(file(), '# Notes\n\nThe ZEPHYR-4412 relay trips at 30 amps.\n');
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await fx.stop();
    dir.remove();
  });

  it('takes the only embedding model Ollama has and indexes the file to ready, with no setting touched', async () => {
    const c = await open(fx.url);
    const conv = await c.call('chat.create', { model: 'llama3.2' });
    await c.call('docs.attachPath', { target: { conversation: conv.id }, path: file() });
    await expect
      .poll(async () => (await c.call('docs.bases', { conversation: conv.id })).bases[0]?.documents[0]?.state, {
        timeout: 30_000,
      })
      .toBe('ready');
    const { bases, embedder } = await c.call('docs.bases', { conversation: conv.id });
    expect(embedder).toEqual({ backend: 'ollama', model: 'nomic-embed-text:latest' });
    expect(bases[0].embedder).toEqual(embedder);
    expect(bases[0].error).toBeUndefined();
    expect(fx.requestsTo('/api/embed').length).toBeGreaterThan(0);
  });

  it('Ollama not running: the base says so and what to do (start it, then Retry)', async () => {
    const c = await open('http://127.0.0.1:9');
    const conv = await c.call('chat.create', { model: 'llama3.2' });
    await c.call('docs.attachPath', { target: { conversation: conv.id }, path: file() });
    await expect
      .poll(async () => (await c.call('docs.bases', { conversation: conv.id })).bases[0]?.error?.message, {
        timeout: 30_000,
      })
      .toMatch(
        /^Indexing waits for Ollama, which makes the embeddings: .* Start Ollama \("ollama serve"\), then Retry\.$/,
      );
    const { bases } = await c.call('docs.bases', { conversation: conv.id });
    expect(bases[0].error?.details).toMatchObject({ action: { kind: 'retry' } });
    expect(bases[0].documents[0].state).toBe('embedding');
  });
});
