// The library through the real services, router and web transport: what the Models page and the CLI receive.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { downloaded, folderFiles, hfCacheRepo, tempHome } from '../fixtures/model-folders';
import { tinyGguf } from '../fixtures/tiny-gguf';

const LLAMA_1B = 'bartowski/Llama-3.2-1B-Instruct-GGUF';
const LLAMA_1B_FILE = 'Llama-3.2-1B-Instruct-Q4_K_M.gguf';

let t: ReturnType<typeof tempHome>;
let app: TestApp;
beforeEach(async () => {
  t = tempHome();
  hfCacheRepo(join(t.home, 'hub'), LLAMA_1B, { [LLAMA_1B_FILE]: tinyGguf({ seed: 1 }) });
  app = await startTestApp({
    dataDir: join(t.home, 'data'),
    env: { HF_HUB_CACHE: join(t.home, 'hub') },
    local: { home: t.home },
  });
  // A 2 GB machine without GPU: the 1B is the largest suggestion that fits.
  await app.client.call('settings.update', { hardwareOverride: { vramGiB: 0, ramGiB: 2 } });
});
afterEach(async () => {
  await app.close();
  t.remove();
});

test('models, folders, delete and the recommendation over the wire', async () => {
  const dl = join(app.dataDir, 'models');
  downloaded(dl, 'org/own-GGUF', { 'own-Q4_K_M.gguf': tinyGguf({ seed: 2 }) });
  const mine = folderFiles(join(t.home, 'mine'), { 'acme/Bar-GGUF/bar.gguf': tinyGguf({ seed: 3 }) });

  const added = await app.client.call('local.folders.add', { path: mine });
  expect(added.models.map((m) => [m.id, m.source])).toEqual([
    ['org/own-GGUF/own-Q4_K_M.gguf', 'downloaded'],
    [`${LLAMA_1B}/${LLAMA_1B_FILE}`, 'hf-cache'],
    ['acme/Bar-GGUF/bar.gguf', 'folder'],
  ]);
  const cached = added.models[1];
  expect(cached.plan).toMatchObject({ verdict: 'ram', gpuLayers: 0, contextSize: 512 });

  const rec = await app.client.call('local.recommend', {});
  expect(rec.recommendation).toMatchObject({ repo: LLAMA_1B, file: LLAMA_1B_FILE, modelId: cached.id });
  expect(rec.recommendation?.why).toBe('Fits in RAM (CPU) on this machine: 2.1 GB RAM, no GPU.');

  await expect(app.client.call('local.delete', { id: cached.id })).rejects.toMatchObject({ code: 'forbidden' });
  const after = await app.client.call('local.delete', { id: 'org/own-GGUF/own-Q4_K_M.gguf' });
  expect(after.models.map((m) => m.id)).toEqual([cached.id, 'acme/Bar-GGUF/bar.gguf']);
  expect(existsSync(join(dl, 'org'))).toBe(false);

  const forgot = await app.client.call('local.folders.forget', { path: join(t.home, 'hub') });
  expect(forgot.models.map((m) => m.id)).toEqual(['acme/Bar-GGUF/bar.gguf']);
  expect(forgot.folders.map((f) => f.source)).toEqual(['downloaded', 'lmstudio', 'folder']);
  await expect(app.client.call('local.folders.add', { path: join(t.home, 'nope') })).rejects.toMatchObject({
    code: 'invalid_input',
  });
});
