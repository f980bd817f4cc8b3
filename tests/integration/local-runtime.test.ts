import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalModel } from '@shared/contract/local-models';
import type { AppError } from '@shared/errors';
import { createLogger } from '../../electron/main/services/log';
import { EngineRuntime, type RuntimeOptions } from '../../electron/main/services/local/host/engine-runtime';
import { nodeHost } from '../../electron/main/services/local/host/spawn-node';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { tempDir } from '../helpers/app';

/** The runtime with the real node-llama-cpp in its host process on the CPU, one thread, on tiny GGUFs written here. */
describe('the built-in engine runtime (real llama.cpp)', () => {
  const dir = tempDir('hubdesk-runtime-');
  const file = (name: string, bytes: Uint8Array) => {
    const path = join(dir.path, name);
    writeFileSync(path, bytes);
    return path;
  };
  const model = (name: string, path: string, extra: Partial<LocalModel> = {}): LocalModel => ({
    id: `test/${name}`,
    name,
    path,
    parts: 1,
    source: 'folder',
    folder: dir.path,
    sizeBytes: 0,
    embedding: false,
    deletable: false,
    plan: { contextSize: 256, gpuLayers: 0 },
    ...extra,
  });
  let tiny: LocalModel;
  let keepAlive = 10;
  const runtimes: EngineRuntime[] = [];
  const runtime = (extra: Partial<RuntimeOptions> = {}) => {
    const r = new EngineRuntime({
      log: createLogger(),
      spawn: nodeHost(process.env.HUBDESK_ENGINE_HOST!),
      keepAliveMinutes: () => keepAlive,
      parts: (m) => [m.path],
      gpu: false,
      threads: 1,
      ...extra,
    });
    runtimes.push(r);
    return r;
  };
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: AppError) => e,
    );

  beforeAll(() => {
    tiny = model('tiny', file('tiny.gguf', tinyGguf()));
  });
  afterAll(async () => {
    for (const r of runtimes) await r.dispose();
    dir.remove();
  });

  it('starts llama.cpp only when first used, loads with the plan, reports memory, unloads', async () => {
    const rt = runtime();
    expect(rt.status()).toMatchObject({ started: false, loaded: [] });
    const s = await rt.load(tiny);
    expect(s).toMatchObject({ started: true, gpu: 'cpu', keepAliveMinutes: 10, threads: { value: 1, auto: false } });
    // llama.cpp runs in a process of its own.
    expect(s.host?.pid).toBeGreaterThan(0);
    expect(s.host?.pid).not.toBe(process.pid);
    expect(s.loaded).toHaveLength(1);
    const [m] = s.loaded;
    expect(m).toMatchObject({ id: tiny.id, contextSize: 256, gpuLayers: 0, embedding: false });
    // The weights (~0.47 MB) plus the context's buffers.
    expect(m.memoryBytes).toBeGreaterThan(400_000);
    expect(Date.parse(m.unloadAt!) - Date.parse(m.loadedAt)).toBeGreaterThan(9 * 60_000);
    // Loading it again with other settings reloads it; with the same, it stays.
    const again = await rt.load(tiny, { contextSize: 512 });
    expect(again.loaded.map((l) => l.contextSize)).toEqual([512]);
    expect((await rt.load(tiny, { contextSize: 512 })).loaded[0].loadedAt).toBe(again.loaded[0].loadedAt);
    expect(again.loaded[0].threads).toBe(1);
    // The Load dialog's CPU threads: another count reloads with it; the engine setting is untouched.
    const two = await rt.load(tiny, { contextSize: 512, threads: 2 });
    expect(two.loaded[0].threads).toBe(2);
    expect(two.loaded[0].loadedAt).not.toBe(again.loaded[0].loadedAt);
    expect(two.threads).toEqual({ value: 1, auto: false });
    expect((await rt.unload()).loaded).toEqual([]);
  });

  it('holds two models at once, and a second load of a model while it loads waits for it', async () => {
    const rt = runtime();
    const other = model('other', file('other.gguf', tinyGguf({ seed: 7 })));
    const [a, b, c] = await Promise.all([rt.load(tiny), rt.load(tiny), rt.load(other)]);
    expect(a.loaded.length + b.loaded.length + c.loaded.length).toBeGreaterThanOrEqual(4);
    expect(
      rt
        .status()
        .loaded.map((l) => l.id)
        .sort(),
    ).toEqual([other.id, tiny.id].sort());
    expect((await rt.unload(tiny.id)).loaded.map((l) => l.id)).toEqual([other.id]);
    await rt.unload();
  });

  it('unloads a model left idle for its keep-alive, not while it is held, and re-arms when the setting changes', async () => {
    const rt = runtime({ minuteMs: 150 });
    keepAlive = 1;
    try {
      const lease = await rt.acquire(tiny);
      expect(rt.status().loaded[0].unloadAt).toBeUndefined();
      await new Promise((r) => setTimeout(r, 400));
      expect(rt.status().loaded).toHaveLength(1);
      lease.release();
      await expect.poll(() => rt.status().loaded[0].unloadAt).toBeDefined();
      await expect.poll(() => rt.status().loaded.length, { timeout: 5_000 }).toBe(0);
      // 0 keeps it until unloaded by hand.
      await rt.load(tiny);
      keepAlive = 0;
      rt.keepAliveChanged();
      expect(rt.status().loaded[0].unloadAt).toBeUndefined();
      await new Promise((r) => setTimeout(r, 400));
      expect(rt.status().loaded).toHaveLength(1);
      await rt.unload();
    } finally {
      keepAlive = 10;
    }
  });

  it('refuses an architecture llama.cpp does not know, and leaves nothing loaded', async () => {
    const rt = runtime();
    const odd = model('odd', file('odd.gguf', tinyGguf({ architecture: 'nosucharch' })));
    const e = await failure(rt.load(odd));
    expect(e.code).toBe('invalid_input');
    expect(e.message).toContain("llama.cpp does not know the architecture 'nosucharch' of this file");
    expect(rt.status().loaded).toEqual([]);
  });

  it('refuses a truncated file, saying so', async () => {
    const rt = runtime();
    const cut = model('cut', file('cut.gguf', tinyGguf().slice(0, 200_000)));
    const e = await failure(rt.load(cut));
    expect(e.code).toBe('invalid_input');
    expect(e.message).toMatch(/cut is truncated or damaged .*: download it again/);
    expect(rt.status().loaded).toEqual([]);
  });

  it('refuses a context too large for the memory, naming the context', async () => {
    const rt = runtime();
    const e = await failure(rt.load(tiny, { contextSize: 30_000_000 }));
    expect(e.message).toBe(
      'Not enough memory for tiny at 30000000 tokens of context: try a shorter context or fewer GPU layers.',
    );
    expect(rt.status().loaded).toEqual([]);
    // The model is still usable with a context that fits.
    expect((await rt.load(tiny)).loaded).toHaveLength(1);
    await rt.unload();
    // Two loads of llama.cpp, the first trying an allocation it cannot make: seconds on a CI machine under load.
  }, 60_000);

  it('embeds texts, from a chat model and from an embedding model', async () => {
    const rt = runtime();
    const vectors = await rt.embed(tiny, ['hello world', 'the model']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(64);
    expect(vectors[0]).not.toEqual(vectors[1]);
    const emb = model('emb', tiny.path, { id: 'test/emb', embedding: true });
    const s = await rt.load(emb);
    expect(s.loaded.find((l) => l.id === emb.id)).toMatchObject({ embedding: true });
    const [v] = await rt.embed(emb, ['hello world']);
    expect(v).toEqual(vectors[0]);
    await rt.unload();
  });
});
