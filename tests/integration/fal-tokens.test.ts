import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { startFalFixture, type FalFixture } from '../fixtures/fal';
import { startTestApp, type TestApp } from '../helpers/app';
import { falAppAlias } from '../../electron/main/services/fal/service';

const FAL_KEY = 'fal-key-id:fal-key-secret-0123456789';

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('fal temporary tokens (client → web transport → router → service → fal fixture)', () => {
  let fal: FalFixture;
  let app: TestApp;

  beforeAll(async () => {
    fal = await startFalFixture({ keys: [FAL_KEY] });
    // The fal address is set outside the page, so the key is bound to it.
    app = await startTestApp({ env: { FAL_KEY, HUBDESK_FAL_REST_BASE: fal.url } });
  });
  afterAll(async () => {
    await app.close();
    await fal.stop();
  });
  beforeEach(() => {
    fal.clearFaults();
    fal.answerShape = 'string';
  });

  it('reads the app alias from the endpoint id', () => {
    expect(falAppAlias('fal-ai/fast-sdxl')).toBe('fast-sdxl');
    expect(falAppAlias('fal-ai/flux/dev')).toBe('flux');
    expect(() => falAppAlias('fast-sdxl')).toThrow(/Invalid app id/);
  });

  it('posts the documented request and returns a 2-minute token (JSON-string answer)', async () => {
    const before = Date.now();
    const r = await app.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' });
    const req = fal.requestsTo('/tokens/').at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.headers.authorization).toBe(`Key ${FAL_KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({ allowed_apps: ['flux'], token_expiration: 120 });
    expect(r.token).toBe(fal.issued.at(-1)!.token);
    expect(r).toMatchObject({ app: 'flux', expiresInSeconds: 120 });
    expect(r.expiresAt).toBeGreaterThanOrEqual(before + 120_000);
  });

  it('reads the {detail} answer shape and plain text too', async () => {
    fal.answerShape = 'detail';
    const a = await app.client.call('fal.tempToken', { endpointId: 'fal-ai/fast-sdxl' });
    expect(a.token).toBe(fal.issued.at(-1)!.token);
    fal.answerShape = 'text';
    const b = await app.client.call('fal.tempToken', { endpointId: 'fal-ai/fast-sdxl' });
    expect(b.token).toBe(fal.issued.at(-1)!.token);
  });

  it.each([
    [401, 'unauthorized', /fal rejected the key/],
    [403, 'forbidden', /may not create tokens/],
    [429, 'rate_limited', /rate-limiting/],
    [500, 'unavailable', /HTTP 500/],
    [503, 'unavailable', /HTTP 503/],
  ] as const)('HTTP %i → %s with a clear message', async (status, code, message) => {
    fal.fault('/tokens/', { status, body: { detail: 'nope' }, times: 1 });
    const e = await failure(app.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain(FAL_KEY);
  });

  it('a wrong key is refused by fal itself', async () => {
    const other = await startTestApp({ env: { FAL_KEY: 'wrong-key:0000000000000', HUBDESK_FAL_REST_BASE: fal.url } });
    try {
      const e = await failure(other.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }));
      expect(e).toMatchObject({ code: 'unauthorized', status: 401 });
    } finally {
      await other.close();
    }
  });

  it('a hung server times out', async () => {
    const quick = await startTestApp({ env: { FAL_KEY, HUBDESK_FAL_REST_BASE: fal.url } });
    try {
      (quick.services.fal as unknown as { opts: { timeoutMs: number } }).opts.timeoutMs = 300;
      fal.fault('/tokens/', { hang: true, times: 1 });
      const e = await failure(quick.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }));
      expect(e.code).toBe('timeout');
      expect(e.message).toMatch(/did not answer/);
    } finally {
      await quick.close();
    }
  });

  it('without a key: a clear message and no request', async () => {
    const bare = await startTestApp({ env: {} });
    try {
      const n = fal.requests.length;
      await bare.client.call('settings.update', { falRestBase: fal.url });
      const e = await failure(bare.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }));
      expect(e.code).toBe('unauthorized');
      expect(e.message).toMatch(/No fal key/);
      expect(fal.requests.length).toBe(n);
    } finally {
      await bare.close();
    }
  });

  it('the key appears in no renderer-visible payload', async () => {
    const seen: string[] = [];
    seen.push(JSON.stringify(await app.client.call('settings.get', {})));
    seen.push(JSON.stringify(await app.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' })));
    const model = {
      id: 'black-forest-labs/FLUX.1-dev',
      tags: [],
      pipeline_tag: 'text-to-image',
      inferenceProviderMapping: [
        {
          provider: 'fal-ai',
          hfModelId: 'black-forest-labs/FLUX.1-dev',
          providerId: 'fal-ai/flux/dev',
          status: 'live' as const,
          task: 'text-to-image',
        },
      ],
    };
    seen.push(JSON.stringify(await app.client.call('snippets.generate', { model, options: { provider: 'fal-ai' } })));
    seen.push(
      JSON.stringify(
        await app.client.call('snippets.generate', { model, options: { provider: 'fal-ai', directRequest: true } }),
      ),
    );
    fal.fault('/tokens/', { status: 401, body: { detail: `bad key ${FAL_KEY}` }, times: 1 });
    seen.push(JSON.stringify(await failure(app.client.call('fal.tempToken', { endpointId: 'fal-ai/flux/dev' }))));
    for (const payload of seen) {
      expect(payload).not.toContain(FAL_KEY);
      expect(payload).not.toContain('fal-key-secret');
    }
  });
});
