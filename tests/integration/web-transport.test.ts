import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { startOllamaFixture, fixtureModel, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';

describe('web transport', () => {
  let ollama: OllamaFixture;
  let app: TestApp;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')], progressIntervalMs: 20 });
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url } });
  });
  afterAll(async () => {
    await app.close();
    await ollama.stop();
  });

  it('round-trips a call through the router to a service and back', async () => {
    const status = await app.client.call('ollama.status', {});
    expect(status).toEqual({ host: ollama.url, reachable: true, version: '0.12.3' });
    const list = await app.client.call('ollama.list', {});
    expect(list.models.map((m) => m.name)).toEqual(['llama3.2:latest']);
  });

  it('streams events and ends with the result', async () => {
    const seen: string[] = [];
    const h = app.client.stream('ollama.pull', { model: 'llama3.2' }, (events) => {
      for (const e of events) seen.push(e.status);
    });
    await expect(h.result).resolves.toEqual({ status: 'success' });
    expect(seen[0]).toBe('pulling manifest');
    expect(seen.slice(-3)).toEqual(['writing manifest', 'removing unused layers', 'success']);
  });

  it('cancels a stream: main aborts and the fixture sees the connection closed', async () => {
    ollama.progressIntervalMs = 50;
    let events = 0;
    const h = app.client.stream('ollama.pull', { model: 'llama3.2' }, (e) => (events += e.length));
    // Cancel once the pull is under way (its first progress arrived), not after a guessed delay.
    await expect.poll(() => events).toBeGreaterThan(0);
    h.cancel();
    const err = await h.result.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('aborted');
    expect(events).toBeGreaterThan(0);
    await expect.poll(() => ollama.requestsTo('/api/pull').at(-1)?.closedEarly).toBe(true);
  });

  it('rejects malformed input with invalid_input and the issue path', async () => {
    const err = (await app.client
      .call('settings.update', { ollamaHost: 'not a url' })
      .catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe('invalid_input');
    expect(err.details).toMatchObject({ issues: [{ path: ['ollamaHost'] }] });
  });

  it('a call the service refuses is answered 200 with the error, so a browser logs no failed request', async () => {
    const res = await fetch(`http://127.0.0.1:${app.server.port}/api/call/ollama.show`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.server.secret}` },
      body: JSON.stringify({ model: 'no-such-model' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'not_found', status: 404 } });
  });
});
