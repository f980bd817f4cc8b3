import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { formatBytes } from '@shared/format-bytes';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { hubPullTarget, ollamaModelDirs } from '../../electron/main/services/ollama/disk-check';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/** More than any disk has: the Hub lists sizes, so the fixture can claim this one without writing it. */
const HUGE = 10 ** 18;
const HUGE_PULL = 'hf.co/acme/huge-GGUF:Q4_K_M';
const SMALL_PULL = 'hf.co/acme/small-GGUF:q4_k_m';

/** Free space is checked before an `hf.co/…` pull to a local Ollama, with the sizes the Hub lists. */
describe('ollama pull: the disk check', () => {
  let hub: HubFixture;
  let fx: OllamaFixture;
  let app: TestApp;
  const models = tempDir('hubdesk-ollama-models-');

  beforeAll(async () => {
    hub = await startHubFixture({
      models: [
        { id: 'acme/huge-GGUF', siblings: [{ rfilename: 'huge-Q4_K_M.gguf', size: HUGE }] },
        { id: 'acme/small-GGUF', siblings: [{ rfilename: 'small-Q4_K_M.gguf', size: 2048 }] },
      ],
    });
    fx = await startOllamaFixture({
      models: [],
      registry: { [SMALL_PULL]: { layers: [2048] } },
      progressIntervalMs: 1,
    });
    app = await startTestApp({
      env: { OLLAMA_HOST: fx.url, HF_ENDPOINT: hub.url, OLLAMA_MODELS: models.path },
      hub: { consented: true, timeoutMs: 2000 },
      ollama: { timeoutMs: 2000 },
    });
  });
  afterAll(async () => {
    await app.close();
    await fx.stop();
    await hub.stop();
    models.remove();
  });

  const pull = (model: string) =>
    app.client
      .stream('ollama.pull', { model }, () => {})
      .result.then(
        () => undefined,
        (e: unknown) => e as AppError,
      );
  const pulled = () => fx.requestsTo('/api/pull').map((r) => (r.body as { name?: string }).name);

  it('refuses a pull the disk of OLLAMA_MODELS has no room for, before asking Ollama', async () => {
    const err = await pull(HUGE_PULL);
    expect(err?.code).toBe('unavailable');
    expect(err?.message).toMatch(
      new RegExp(`^Not enough disk space for ${HUGE_PULL}: needs ${formatBytes(HUGE)}, [\\d.]+ [KMGT]?B free on `),
    );
    expect(err?.message).toContain(models.path);
    expect(pulled()).toEqual([]);
  });

  it('lets a pull that fits through (quant names match without case), and one of unknown size', async () => {
    expect(await pull(SMALL_PULL)).toBeUndefined();
    // Q8_0 is not in the repo: the size is unknown, so Ollama decides (and says it has no such file).
    const unknown = await pull('hf.co/acme/huge-GGUF:Q8_0');
    expect(unknown?.message).not.toMatch(/disk space/);
    expect(pulled()).toEqual([SMALL_PULL, 'hf.co/acme/huge-GGUF:Q8_0']);
  });

  it('lets a pull of a model Ollama already has through: it only checks for updates', async () => {
    fx.models.push(fixtureModel(HUGE_PULL));
    const err = await pull(HUGE_PULL);
    expect(err?.message ?? '').not.toMatch(/disk space/);
    expect(pulled().at(-1)).toBe(HUGE_PULL);
  });

  it('does not check for a remote Ollama (its own disk) or a name that is not an hf.co pull', async () => {
    const asked: string[] = [];
    const remote = new OllamaService({
      host: () => 'https://ollama.example.org',
      // What the remote answers does not matter here: only that the disk was not checked first.
      keyedFetch: async () => new Response('{"error":"no route"}', { status: 502 }),
      log: createLogger(),
      timeoutMs: 300,
      pullDisk: { size: async (repo) => (asked.push(repo), HUGE), dirs: () => [models.path] },
    });
    const ctx = { signal: new AbortController().signal, emit: () => {} };
    const err = await remote.pull({ model: HUGE_PULL }, ctx).catch((e: unknown) => e as AppError);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).not.toMatch(/disk space/);
    expect(asked).toEqual([]);
    expect(hubPullTarget('llama3.2:latest')).toBeUndefined();
    expect(hubPullTarget('hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF')).toBeUndefined();
    expect(hubPullTarget('huggingface.co/a/b:IQ4_XS')).toEqual({ repo: 'a/b', quant: 'IQ4_XS' });
    expect(ollamaModelDirs({}, '/home/u')).toEqual(['/home/u/.ollama/models', '/home/u']);
  });
});
