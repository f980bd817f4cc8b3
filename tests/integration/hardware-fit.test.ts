import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { kvShapeFromHeader, planQuants, fitHardware, defaultContext } from '@shared/fit';
import { defaultHubModels, startHubFixture, type HubFixture } from '../fixtures/hub';
import { llamaGgufFiles } from '../fixtures/gguf-writer';
import { startTestApp, type TestApp } from '../helpers/app';

const GiB = 1024 ** 3;
const REPO = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
const FILE = 'Llama-3.2-1B-Instruct-Q4_K_M.gguf';
const fail = (p: Promise<unknown>) =>
  p.then(() => undefined as unknown as AppError).catch((e: unknown) => e as AppError);

describe('system.hardware and hub.ggufHeader through the router', () => {
  let hub: HubFixture;
  let app: TestApp;
  const probed: string[] = [];

  beforeAll(async () => {
    hub = await startHubFixture({
      models: [
        ...defaultHubModels(),
        {
          id: 'acme/gated-GGUF',
          gated: 'manual',
          tags: ['gguf'],
          siblings: [{ rfilename: 'gated-Q4_K_M.gguf', size: 100 }],
          files: llamaGgufFiles('gated', ['Q4_K_M']),
        },
      ],
    });
    app = await startTestApp({
      env: { HF_ENDPOINT: hub.url },
      hub: { sleep: async () => {}, timeoutMs: 2000 },
      hardware: {
        platform: 'linux',
        run: async (cmd) => {
          probed.push(cmd);
          if (cmd === 'nvidia-smi') return 'NVIDIA GeForce RTX 3060, 12288, 11000\n';
          throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        },
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await hub.stop();
  });

  it('reports the detected GPU, then the Settings override, then detection again after a reset', async () => {
    const v = await app.client.call('system.hardware', {});
    expect(v.source).toBe('detected');
    expect(v.detected.gpus).toEqual([
      { name: 'NVIDIA GeForce RTX 3060', vendor: 'nvidia', vramTotal: 12288 * 1024 ** 2, vramFree: 11000 * 1024 ** 2 },
    ]);
    expect(v.detected.ramTotal).toBeGreaterThan(0);
    expect(v.probes.map((p) => p.tool)).toEqual(['nvidia-smi', 'rocm-smi']);

    const settings = await app.client.call('settings.update', { hardwareOverride: { vramGiB: 0, ramGiB: 2 } });
    expect(settings.values.hardwareOverride).toEqual({ vramGiB: 0, ramGiB: 2 });
    const o = await app.client.call('system.hardware', {});
    expect(o.source).toBe('override');
    expect(o.effective).toMatchObject({ ramTotal: 2 * GiB, gpus: [], unified: false });
    expect(o.detected.gpus).toHaveLength(1);

    await app.client.call('settings.update', { hardwareOverride: null });
    expect((await app.client.call('system.hardware', {})).source).toBe('detected');
    // The tools ran once: detection is kept, the override is read on every call.
    expect(probed).toEqual(['nvidia-smi', 'rocm-smi']);
  });

  it('rejects a bad override and keeps the previous settings', async () => {
    const err = await fail(app.client.call('settings.update', { hardwareOverride: { vramGiB: -1, ramGiB: 8 } }));
    expect(err.code).toBe('invalid_input');
    expect((await app.client.call('settings.get', {})).values.hardwareOverride).toBeUndefined();
  });

  it('reads nothing from the Hub while access is off', async () => {
    const err = await fail(app.client.call('hub.ggufHeader', { id: REPO, file: FILE }));
    expect(err.code).toBe('forbidden');
    expect(hub.requests).toHaveLength(0);
  });

  it('reads the GGUF header with range requests on the resolve route', async () => {
    await app.client.call('settings.update', { hubAccess: 'online' });
    const h = await app.client.call('hub.ggufHeader', { id: REPO, file: FILE });
    expect(h).toMatchObject({
      architecture: 'llama',
      blockCount: 16,
      headCountKv: 8,
      keyLength: 64,
      contextLength: 131072,
    });
    const reqs = hub.requests.filter((r) => r.path === `/${REPO}/resolve/main/${FILE}`);
    expect(reqs.length).toBeGreaterThan(0);
    expect(reqs.every((r) => /^bytes=0-\d+$/.test(String(r.headers.range)))).toBe(true);
    // Kept: a second read sends nothing.
    const before = hub.requests.length;
    await app.client.call('hub.ggufHeader', { id: REPO, file: FILE });
    expect(hub.requests.length).toBe(before);

    // The page's plan from these facts: 1B model, 12 GB GPU → every quant fits in VRAM, the largest is the default.
    const { quants } = await app.client.call('hub.model', { id: REPO });
    const hw = (await app.client.call('system.hardware', {})).effective;
    const shape = kvShapeFromHeader(h)!;
    const plan = planQuants(quants, fitHardware(hw), shape, defaultContext(shape.contextLength));
    expect(plan.rows.every((r) => r.fit?.verdict === 'vram')).toBe(true);
    expect(plan.defaultLabel).toBe('F16');
  });

  it('says why a header cannot be read: missing file, gated repo without token, not a GGUF', async () => {
    const missing = await fail(app.client.call('hub.ggufHeader', { id: REPO, file: 'nope-Q4_K_M.gguf' }));
    expect(missing.code).toBe('not_found');
    const gated = await fail(app.client.call('hub.ggufHeader', { id: 'acme/gated-GGUF', file: 'gated-Q4_K_M.gguf' }));
    expect(gated.code).toBe('unauthorized');
    expect(gated.message).toMatch(/gated.*token/);
    const badName = await fail(app.client.call('hub.ggufHeader', { id: REPO, file: '../secrets.gguf' }));
    expect(badName.code).toBe('invalid_input');
  });
});
