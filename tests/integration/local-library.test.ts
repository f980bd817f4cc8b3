import { existsSync, readFileSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { LocalModel } from '@shared/contract/local-models';
import { GiB, RUNTIME_OVERHEAD, type FitHardware } from '@shared/fit';
import { LocalConfigStore } from '../../electron/main/services/local/config';
import { LocalLibrary, MAX_PROBLEM_ROWS } from '../../electron/main/services/local/disk/library';
import { localCalls } from '@shared/contract/local';
import { createLogger } from '../../electron/main/services/log';
import { downloaded, folderFiles, hfCacheRepo, lmStudioModels, sha256, tempHome } from '../fixtures/model-folders';
import { tinyGguf } from '../fixtures/tiny-gguf';

const tiny = (seed: number, extra: Parameters<typeof tinyGguf>[0] = {}) => tinyGguf({ seed, ...extra });
const localModelsOutput = localCalls['local.models'].output;
const CPU: FitHardware = { ramBytes: 16 * GiB, vramBytes: 0, unified: false };

let t: ReturnType<typeof tempHome>;
let hw: FitHardware | undefined;
beforeEach(() => {
  t = tempHome();
  hw = CPU;
});
afterEach(() => t.remove());

function library(env: Record<string, string> = {}) {
  const log = createLogger();
  const config = new LocalConfigStore({ file: join(t.home, 'data', 'local.json'), log });
  const lib = new LocalLibrary({
    downloadsDir: join(t.home, 'data', 'models'),
    config,
    env,
    home: t.home,
    log,
    hardware: async () => hw,
  });
  return { lib, config, dl: join(t.home, 'data', 'models') };
}

const byId = (models: LocalModel[], id: string) => {
  const m = models.find((x) => x.id === id);
  if (!m) throw new Error(`${id} not in ${models.map((x) => x.id).join(', ')}`);
  return m;
};

describe('every root, in order', () => {
  test('downloads, the HF cache, LM Studio and a user folder; problems stated; the first copy of an id wins', async () => {
    const { lib, dl } = library();
    const cache = join(t.home, '.cache', 'huggingface', 'hub');
    downloaded(dl, 'org/dl-GGUF', { 'dl-model-Q4_K_M.gguf': tiny(1) });
    downloaded(dl, 'org/dl-GGUF', { 'stray-Q4_0.gguf': tiny(9) }, { listed: false });
    folderFiles(dl, { 'org/dl-GGUF/next-Q8_0.gguf.part': tiny(8).slice(0, 1000) });
    // The same repo file in the cache: the download wins.
    hfCacheRepo(cache, 'org/dl-GGUF', { 'dl-model-Q4_K_M.gguf': tiny(1) });
    // An older revision of a cached file, then the current one (refs/main).
    hfCacheRepo(
      cache,
      'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
      { 'qwen2.5-0.5b-instruct-q4_k_m.gguf': tiny(3) },
      {
        rev: 'b'.repeat(40),
        main: null,
      },
    );
    hfCacheRepo(
      cache,
      'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
      { 'qwen2.5-0.5b-instruct-q4_k_m.gguf': tiny(2) },
      { rev: 'c'.repeat(40) },
    );
    lmStudioModels(
      t.home,
      { 'lmstudio-community/Foo-GGUF/Foo-Q8_0.gguf': tiny(4, { name: 'Foo' }) },
      {
        downloadsFolder: join(t.home, 'lms-models'),
      },
    );
    const mine = folderFiles(join(t.home, 'mine'), {
      'loose.gguf': tiny(5),
      'acme/Bar-GGUF/bar-Q5_K_M.gguf': tiny(6),
      'embed/nomic-embed.gguf': tiny(7, { architecture: 'nomic-bert' }),
      'whole/w-00001-of-00002.gguf': tiny(10),
      'whole/w-00002-of-00002.gguf': tiny(11),
      'gap/big-00001-of-00003.gguf': tiny(12),
      'gap/big-00003-of-00003.gguf': tiny(13),
      'junk.gguf': 'this is not a model\n',
      'cut.gguf': tiny(14).slice(0, 200_000),
      'head.gguf': tiny(15).slice(0, 3000),
    });
    symlinkSync(mine, join(mine, 'loop'));
    await lib.addFolder(mine);
    const { models, folders } = await lib.list();

    expect(folders).toEqual([
      { path: dl, source: 'downloaded', auto: true, exists: true, models: 2 },
      { path: cache, source: 'hf-cache', auto: true, exists: true, models: 1 },
      { path: join(t.home, 'lms-models'), source: 'lmstudio', auto: true, exists: true, models: 1 },
      { path: mine, source: 'folder', auto: false, exists: true, models: 8 },
    ]);

    const own = byId(models, 'org/dl-GGUF/dl-model-Q4_K_M.gguf');
    expect(own).toMatchObject({ source: 'downloaded', deletable: true, verified: true, quant: 'Q4_K_M', parts: 1 });
    expect(own.problem).toBeUndefined();
    expect(own.path).toBe(join(dl, 'org/dl-GGUF/dl-model-Q4_K_M.gguf'));
    expect(models.filter((m) => m.id === own.id)).toHaveLength(1);
    expect(byId(models, 'org/dl-GGUF/stray-Q4_0.gguf').problem).toMatch(/did not finish verifying/);
    expect(models.some((m) => m.path.endsWith('.part'))).toBe(false);

    const qwen = byId(models, 'Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf');
    expect(qwen).toMatchObject({
      source: 'hf-cache',
      deletable: false,
      verified: true,
      repo: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
    });
    expect(qwen.path).toContain('c'.repeat(40));
    expect(qwen.path).toContain('snapshots');

    const foo = byId(models, 'lmstudio-community/Foo-GGUF/Foo-Q8_0.gguf');
    expect(foo).toMatchObject({
      source: 'lmstudio',
      title: 'Foo',
      quant: 'Q8_0',
      architecture: 'llama',
      embedding: false,
    });

    const loose = byId(models, join(mine, 'loose.gguf'));
    expect(loose).toMatchObject({ name: 'loose', source: 'folder', quant: 'F32', repo: undefined });
    expect(byId(models, 'acme/Bar-GGUF/bar-Q5_K_M.gguf').repo).toBe('acme/Bar-GGUF');
    expect(byId(models, join(mine, 'embed/nomic-embed.gguf')).embedding).toBe(true);

    const whole = byId(models, join(mine, 'whole/w-00001-of-00002.gguf'));
    expect(whole).toMatchObject({ name: 'w', parts: 2, sizeBytes: tiny(10).length + tiny(11).length });
    expect(whole.problem).toBeUndefined();
    expect(lib.partsOf(whole)).toEqual([
      join(mine, 'whole/w-00001-of-00002.gguf'),
      join(mine, 'whole/w-00002-of-00002.gguf'),
    ]);
    expect(byId(models, join(mine, 'gap/big-00001-of-00003.gguf')).problem).toBe('part 2 of 3 is missing');
    expect(byId(models, join(mine, 'junk.gguf')).problem).toMatch(/not a GGUF file/);
    expect(byId(models, join(mine, 'cut.gguf')).problem).toMatch(/truncated/);
    expect(byId(models, join(mine, 'cut.gguf')).plan).toBeUndefined();
    expect(byId(models, join(mine, 'head.gguf')).problem).toMatch(/truncated|cut short/);
  });

  test('a cached blob not named by a sha256 is listed but not verified', async () => {
    const { lib } = library();
    const cache = join(t.home, '.cache', 'huggingface', 'hub');
    const snap = hfCacheRepo(cache, 'org/m-GGUF', { 'm.gguf': tiny(1) });
    // Replace the link by a plain file: nothing ties it to a blob any more.
    const bytes = readFileSync(join(snap, 'm.gguf'));
    unlinkSync(join(snap, 'm.gguf'));
    writeFileSync(join(snap, 'm.gguf'), bytes);
    const m = byId((await lib.list()).models, 'org/m-GGUF/m.gguf');
    expect(m.verified).toBe(false);
    expect(m.problem).toBeUndefined();
    expect(sha256(bytes)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('HF_HUB_CACHE wins over HF_HOME, which wins over ~/.cache/huggingface/hub', async () => {
    hfCacheRepo(join(t.home, 'hubcache'), 'a/one-GGUF', { 'one.gguf': tiny(1) });
    hfCacheRepo(join(t.home, 'hfhome', 'hub'), 'b/two-GGUF', { 'two.gguf': tiny(2) });
    hfCacheRepo(join(t.home, '.cache', 'huggingface', 'hub'), 'c/three-GGUF', { 'three.gguf': tiny(3) });
    const ids = async (env: Record<string, string>) => (await library(env).lib.list()).models.map((m) => m.id);
    expect(await ids({ HF_HUB_CACHE: join(t.home, 'hubcache'), HF_HOME: join(t.home, 'hfhome') })).toEqual([
      'a/one-GGUF/one.gguf',
    ]);
    expect(await ids({ HF_HOME: join(t.home, 'hfhome') })).toEqual(['b/two-GGUF/two.gguf']);
    expect(await ids({})).toEqual(['c/three-GGUF/three.gguf']);
  });

  test('LM Studio without settings: ~/.lmstudio/models, and the legacy folder when it is there', async () => {
    lmStudioModels(t.home, { 'p/r-GGUF/r.gguf': tiny(1) });
    folderFiles(join(t.home, '.cache', 'lm-studio', 'models'), { 'q/s-GGUF/s.gguf': tiny(2) });
    const { models, folders } = await library().lib.list();
    expect(models.map((m) => [m.id, m.source])).toEqual([
      ['p/r-GGUF/r.gguf', 'lmstudio'],
      ['q/s-GGUF/s.gguf', 'lmstudio'],
    ]);
    expect(folders.filter((f) => f.source === 'lmstudio').map((f) => f.path)).toEqual([
      join(t.home, '.lmstudio', 'models'),
      join(t.home, '.cache', 'lm-studio', 'models'),
    ]);
  });

  test('scans are cached; a rescan rereads a file that changed', async () => {
    const { lib } = library();
    const dir = folderFiles(join(t.home, 'mine'), { 'x.gguf': tiny(1) });
    await lib.addFolder(dir);
    expect(byId((await lib.list()).models, join(dir, 'x.gguf')).problem).toBeUndefined();
    writeFileSync(join(dir, 'x.gguf'), tiny(1).slice(0, 300_000));
    utimesSync(join(dir, 'x.gguf'), new Date(), new Date(Date.now() + 5000));
    expect(byId((await lib.list()).models, join(dir, 'x.gguf')).problem).toBeUndefined();
    expect(byId((await lib.list(true)).models, join(dir, 'x.gguf')).problem).toMatch(/truncated/);
  });
});

describe('folders', () => {
  test('adding needs an existing folder; forgetting drops a user folder and hides a found one', async () => {
    const { lib, config } = library();
    const cache = join(t.home, '.cache', 'huggingface', 'hub');
    hfCacheRepo(cache, 'org/m-GGUF', { 'm.gguf': tiny(1) });
    const mine = folderFiles(join(t.home, 'mine'), { 'x.gguf': tiny(2) });
    await expect(lib.addFolder(join(t.home, 'nope'))).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/does not exist/),
    });
    await expect(lib.addFolder(join(mine, 'x.gguf'))).rejects.toMatchObject({
      message: expect.stringMatching(/is a file/),
    });
    await expect(lib.addFolder('relative/path')).rejects.toMatchObject({ code: 'invalid_input' });
    await lib.addFolder(mine);
    expect(config.get().folders).toEqual([mine]);

    let list = await lib.forgetFolder(mine);
    expect(config.get().folders).toEqual([]);
    expect(list.folders.some((f) => f.path === mine)).toBe(false);
    expect(existsSync(join(mine, 'x.gguf'))).toBe(true);

    list = await lib.forgetFolder(cache);
    expect(config.get().hidden).toEqual([cache]);
    expect(list.models.some((m) => m.source === 'hf-cache')).toBe(false);
    expect(existsSync(join(cache, 'models--org--m-GGUF'))).toBe(true);
    // Adding it again shows it again.
    list = await lib.addFolder(cache);
    expect(config.get().hidden).toEqual([]);
    expect(list.models.map((m) => m.id)).toContain('org/m-GGUF/m.gguf');
    await expect(lib.forgetFolder(join(t.home, 'other'))).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('delete', () => {
  test('refuses what HubDesk did not download; removes every part of a download and its manifest entry', async () => {
    const { lib, dl } = library();
    hfCacheRepo(join(t.home, '.cache', 'huggingface', 'hub'), 'org/m-GGUF', { 'm.gguf': tiny(1) });
    downloaded(dl, 'keep/k-GGUF', { 'k.gguf': tiny(2) });
    downloaded(dl, 'org/split-GGUF', { 's-00001-of-00002.gguf': tiny(3), 's-00002-of-00002.gguf': tiny(4) });
    await expect(lib.delete('org/m-GGUF/m.gguf')).rejects.toMatchObject({
      code: 'forbidden',
      message: 'HubDesk only deletes files it downloaded; forget the folder instead.',
    });
    await expect(lib.delete('no/such-GGUF/x.gguf')).rejects.toMatchObject({ code: 'not_found' });

    const split = byId((await lib.list()).models, 'org/split-GGUF/s-00001-of-00002.gguf');
    expect(split).toMatchObject({ parts: 2, verified: true, deletable: true });
    const list = await lib.delete(split.id);
    expect(existsSync(join(dl, 'org'))).toBe(false);
    expect(existsSync(join(dl, 'keep/k-GGUF/k.gguf'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dl, '.hubdesk-downloads.json'), 'utf8'));
    expect(Object.keys(manifest.files)).toEqual(['keep/k-GGUF/k.gguf']);
    expect(list.models.map((m) => m.id).sort()).toEqual(['keep/k-GGUF/k.gguf', 'org/m-GGUF/m.gguf']);
  });

  test('a download whose size disagrees with the manifest is not verified', async () => {
    const { lib, dl } = library();
    downloaded(dl, 'org/x-GGUF', { 'x.gguf': tiny(1) }, { size: 1234 });
    expect(byId((await lib.list()).models, 'org/x-GGUF/x.gguf').verified).toBe(false);
  });
});

describe('load plans', () => {
  test('no GPU: the trained context, no GPU layers, fits in RAM', async () => {
    const { lib } = library();
    await lib.addFolder(folderFiles(join(t.home, 'mine'), { 'x.gguf': tiny(1) }));
    const m = byId((await lib.list()).models, join(t.home, 'mine', 'x.gguf'));
    expect(m.plan).toMatchObject({ contextSize: 512, maxContext: 512, gpuLayers: 0, layers: 2, verdict: 'ram' });
    expect(m.plan?.explanation).toMatch(/^Fits in RAM \(CPU\)/);
    expect(lib.plan(m)).toEqual(m.plan);
  });

  test('a GPU with little VRAM: part of the layers on the GPU; enough VRAM: all of them', async () => {
    hw = { ramBytes: 16 * GiB, vramBytes: RUNTIME_OVERHEAD + 500_000, unified: false };
    const { lib } = library();
    await lib.addFolder(folderFiles(join(t.home, 'mine'), { 'x.gguf': tiny(1) }));
    let m = (await lib.list()).models[0];
    expect(m.plan).toMatchObject({ verdict: 'partial', gpuLayers: 1, layers: 2 });
    // A new machine (the Settings override): plans follow without a rescan.
    hw = { ramBytes: 16 * GiB, vramBytes: 8 * GiB, unified: false };
    m = (await lib.list()).models[0];
    expect(m.plan).toMatchObject({ verdict: 'vram', gpuLayers: 2 });
    hw = undefined;
    m = (await lib.list()).models[0];
    expect(m.plan).toEqual({ contextSize: 512, maxContext: 512, gpuLayers: 0, layers: 2, sequences: 1 });
  });

  test('a folder of hundreds of broken files lists the first MAX_PROBLEM_ROWS and counts the rest (issue #38 F14)', async () => {
    const { lib } = library();
    const files: Record<string, Uint8Array> = { 'good.gguf': tiny(1) };
    for (let i = 0; i < MAX_PROBLEM_ROWS + 50; i++)
      files[`empty-${String(i).padStart(4, '0')}.gguf`] = new Uint8Array();
    const mine = folderFiles(join(t.home, 'many'), files);
    const { models, folders } = await lib.addFolder(mine);
    const problems = models.filter((m) => m.problem);
    expect(problems).toHaveLength(MAX_PROBLEM_ROWS);
    expect(problems[0].problem).toBe('not a GGUF file (it does not start with "GGUF")');
    expect(models.filter((m) => !m.problem).map((m) => m.name)).toEqual(['good']);
    expect(folders.find((f) => f.path === mine)).toMatchObject({ models: MAX_PROBLEM_ROWS + 1, problemsHidden: 50 });
    expect(localModelsOutput.parse({ models, folders }).folders.find((f) => f.path === mine)?.problemsHidden).toBe(50);
  });
});
