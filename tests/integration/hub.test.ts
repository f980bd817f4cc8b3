import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { defaultHubModels, startHubFixture, type HubFixture } from '../fixtures/hub';
import { closedPort } from '../helpers/ports';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

const fail = (p: Promise<unknown>) =>
  p.then(() => undefined as unknown as AppError).catch((e: unknown) => e as AppError);

describe('Hub client through the router (fixture Hub)', () => {
  let hub: HubFixture;
  let app: TestApp;
  const sleeps: number[] = [];

  beforeAll(async () => {
    hub = await startHubFixture();
    app = await startTestApp({
      env: { HF_ENDPOINT: hub.url },
      hub: { sleep: async (ms) => void sleeps.push(ms), timeoutMs: 400 },
    });
  });
  afterAll(async () => {
    await app.close();
    await hub.stop();
  });
  beforeEach(() => {
    sleeps.length = 0;
    hub.clearFailures();
    hub.clearFaults();
  });

  it('sends nothing to the Hub until the user chooses "Use the Hub"', async () => {
    const err = await fail(app.client.call('hub.search', { search: 'whisper' }));
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/Settings → Hub access/);
    const err2 = await fail(app.client.call('hub.model', { id: 'openai/whisper-tiny' }));
    expect(err2.code).toBe('forbidden');
    expect(hub.requests).toHaveLength(0);
    await app.client.call('settings.update', { hubAccess: 'online' });
  });

  it('reads model details with the mapping as an object keyed by provider', async () => {
    const { model, freshness } = await app.client.call('hub.model', { id: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(freshness.source).toBe('network');
    const src = defaultHubModels().find((m) => m.id === 'meta-llama/Llama-3.1-8B-Instruct')!;
    const mapping = src.inferenceProviderMapping as Record<string, { providerId: string; status: string }>;
    expect(model.inferenceProviderMapping?.map((e) => [e.provider, e.providerId, e.status, e.hfModelId])).toEqual(
      Object.entries(mapping).map(([p, v]) => [p, v.providerId, v.status, model.id]),
    );
    expect(model.config).toEqual(src.config);
    expect(model.cardData).toEqual(src.cardData);
    expect(model.transformersInfo).toEqual(src.transformersInfo);
    expect(model.siblings).toEqual(src.siblings);
    expect(model.gated).toBe('manual');
    // The default answer and one asking only for the fields outside it.
    const reqs = hub.requestsTo('/api/models/meta-llama/Llama-3.1-8B-Instruct');
    expect(reqs.map((r) => r.query.getAll('expand[]'))).toEqual([[], ['inferenceProviderMapping', 'gguf']]);
  });

  it('reads model details with the mapping as an array, and mask_token / widgetData', async () => {
    const { model } = await app.client.call('hub.model', { id: 'google-bert/bert-base-uncased' });
    const src = defaultHubModels().find((m) => m.id === 'google-bert/bert-base-uncased')!;
    expect(model.inferenceProviderMapping).toEqual(src.inferenceProviderMapping);
    expect(model.mask_token).toBe(src.mask_token);
    expect(model.widgetData).toEqual(src.widgetData);
    expect(model.pipeline_tag).toBe('fill-mask');
    expect(model.library_name).toBe('transformers');
    expect(model.downloads).toBe(src.downloads);
  });

  it('reads GGUF metadata and file sizes', async () => {
    const { model } = await app.client.call('hub.model', { id: 'unsloth/Llama-3.2-1B-Instruct-GGUF' });
    const src = defaultHubModels().find((m) => m.id === 'unsloth/Llama-3.2-1B-Instruct-GGUF')!;
    expect(model.gguf).toEqual(src.gguf);
    expect(model.siblings).toEqual(src.siblings);
  });

  it('revalidates with the ETag: a 304 reuses the cached body', async () => {
    const id = 'google-bert/bert-base-uncased';
    const before = hub.requests.length;
    const again = await app.client.call('hub.model', { id });
    expect(again.freshness.source).toBe('revalidated');
    expect(again.model.mask_token).toBe('[MASK]');
    const sent = hub.requests.slice(before);
    expect(sent.length).toBe(2);
    for (const r of sent) expect(r.headers['if-none-match']).toMatch(/^W\/"/);
  });

  it('a model seen once opens from the cache with live access off, without a request', async () => {
    await app.client.call('settings.update', { hubAccess: 'offline' });
    const before = hub.requests.length;
    const { model, freshness } = await app.client.call('hub.model', { id: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(freshness.source).toBe('cache');
    expect(Date.parse(freshness.fetchedAt)).not.toBeNaN();
    expect(model.inferenceProviderMapping?.length).toBeGreaterThan(0);
    expect(hub.requests.length).toBe(before);
    await app.client.call('settings.update', { hubAccess: 'online' });
  });

  it('404: names the model', async () => {
    const err = await fail(app.client.call('hub.model', { id: 'nobody/nothing-here' }));
    expect(err.code).toBe('not_found');
    expect(err.status).toBe(404);
    expect(err.message).toContain('nobody/nothing-here');
  });

  it('401 on a private model: needs a Hugging Face token', async () => {
    const err = await fail(app.client.call('hub.model', { id: 'acme/private-model' }));
    expect(err.code).toBe('unauthorized');
    expect(err.message).toMatch(/needs a Hugging Face token/);
    expect(hub.requestsTo('/api/models/acme/private-model').at(-1)!.headers.authorization).toBeUndefined();
  });

  it('sends the token when set, and then the private model opens', async () => {
    const token = [...hub.tokens][0];
    await app.client.call('secrets.set', { name: 'hfToken', value: token });
    try {
      const { model } = await app.client.call('hub.model', { id: 'acme/private-model' });
      expect(model.private).toBe(true);
      expect(hub.requestsTo('/api/models/acme/private-model').at(-1)!.headers.authorization).toBe(`Bearer ${token}`);
    } finally {
      await app.client.call('secrets.clear', { name: 'hfToken' });
    }
  });

  it('429: retries up to 3 attempts honouring Retry-After, then says when to try again', async () => {
    hub.fail('/api/models', { status: 429, headers: { 'retry-after': '2' }, body: { error: 'Too many requests' } });
    const before = hub.requestsTo('/api/models').length;
    const err = await fail(app.client.call('hub.search', { search: 'rate-limit-probe' }));
    expect(err.code).toBe('rate_limited');
    expect(err.message).toMatch(/Try again in 2 s/);
    expect(hub.requestsTo('/api/models').length - before).toBe(3);
    expect(sleeps).toEqual([2000, 2000]);
  });

  it('429 with a Retry-After beyond the 8 s cap is not waited out', async () => {
    hub.fail('/api/models', { status: 429, headers: { 'retry-after': '60' }, times: 1 });
    const err = await fail(app.client.call('hub.search', { search: 'long-wait-probe' }));
    expect(err.code).toBe('rate_limited');
    expect(err.message).toMatch(/60 s/);
    expect(sleeps).toEqual([]);
  });

  it('503 then success: exponential back-off (1 s, 2 s) and the answer', async () => {
    hub.fail('/api/models', { status: 503, times: 2, body: { error: 'Service Unavailable' } });
    const res = await app.client.call('hub.search', { search: 'whisper-tiny' });
    expect(res.results.length).toBeGreaterThan(0);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it.each([502, 504])('%i is retried and then reported', async (status) => {
    hub.fail('/api/models', { status });
    const err = await fail(app.client.call('hub.search', { search: `probe-${status}` }));
    expect(err.code).toBe('unavailable');
    expect(err.status).toBe(status);
    expect(err.message).toContain(`HTTP ${status}`);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('500: reported at once, not retried', async () => {
    hub.fail('/api/models', { status: 500, body: { error: 'Internal Error' } });
    const before = hub.requestsTo('/api/models').length;
    const err = await fail(app.client.call('hub.search', { search: 'probe-500' }));
    expect(err.code).toBe('upstream');
    expect(err.message).toMatch(/having trouble \(HTTP 500\)/);
    expect(hub.requestsTo('/api/models').length - before).toBe(1);
  });

  it('timeout: a Hub that does not answer', async () => {
    hub.fault('/api/models/openai/whisper-base', { hang: true, times: 1 });
    const err = await fail(app.client.call('hub.model', { id: 'openai/whisper-base' }));
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/did not answer within/);
  });
});

describe('Hub offline', () => {
  it('offline: a clear message; a model seen before opens from the cache, marked with where it came from', async () => {
    const data = tempDir();
    const hub = await startHubFixture();
    let app = await startTestApp({ dataDir: data.path, env: { HF_ENDPOINT: hub.url }, hub: { timeoutMs: 2000 } });
    try {
      await app.client.call('settings.update', { hubAccess: 'online' });
      const live = await app.client.call('hub.model', { id: 'unsloth/Llama-3.2-1B-Instruct-GGUF' });
      expect(live.freshness.source).toBe('network');
      await app.close();
      await hub.stop();
      // The same data dir, the Hub gone: the seen model opens, an unseen one says why not.
      app = await startTestApp({ dataDir: data.path, env: { HF_ENDPOINT: hub.url }, hub: { timeoutMs: 2000 } });
      const cached = await app.client.call('hub.model', { id: 'unsloth/Llama-3.2-1B-Instruct-GGUF' });
      expect(cached.freshness.source).toBe('cache');
      expect(cached.freshness.reason).toMatch(/offline/);
      expect(cached.freshness.fetchedAt).toBe(live.freshness.fetchedAt);
      expect(cached.model).toEqual(live.model);
      const err = await fail(app.client.call('hub.model', { id: 'openai/whisper-tiny' }));
      expect(err.code).toBe('unavailable');
      expect(err.message).toMatch(/offline/);
    } finally {
      await app.close();
      data.remove();
    }
  });

  it('offline search: nothing listening at the endpoint', async () => {
    const port = await closedPort();
    const app = await startTestApp({ env: { HF_ENDPOINT: `http://127.0.0.1:${port}` } });
    try {
      await app.client.call('settings.update', { hubAccess: 'online' });
      const err = await fail(app.client.call('hub.search', { search: 'whisper' }));
      expect(err.code).toBe('unavailable');
      expect(err.message).toContain(`127.0.0.1:${port}`);
      expect(err.message).toMatch(/ECONNREFUSED/);
    } finally {
      await app.close();
    }
  });
});
