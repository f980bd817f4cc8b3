import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { baseModels } from '@shared/lineage';
import { README_MAX_BYTES, TREE_MAX_ENTRIES } from '../../electron/main/services/hub/repo';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import {
  BIG_CARD_ID,
  BROKEN_CARD_ID,
  DATASET_ID,
  GATED_ID,
  HOSTILE_ID,
  HUGE_DATASET_ID,
  NO_CARD_DATASET_ID,
  SPACE_ID,
  modelPageHub,
} from '../fixtures/hub-model-data';
import { TREE_PAGE } from '../fixtures/hub-repos';
import { startTestApp, type TestApp } from '../helpers/app';

const fail = (p: Promise<unknown>) =>
  p.then(() => undefined as unknown as AppError).catch((e: unknown) => e as AppError);

describe('Model, dataset and Space pages through the router (fixture Hub)', () => {
  let hub: HubFixture;
  let app: TestApp;
  const token = 'hf_fixtureToken0001';

  beforeAll(async () => {
    hub = await startHubFixture(modelPageHub());
    app = await startTestApp({
      env: { HF_ENDPOINT: hub.url },
      hub: { sleep: async () => undefined, timeoutMs: 2000 },
    });
  });
  afterAll(async () => {
    await app.close();
    await hub.stop();
  });
  beforeEach(() => {
    hub.clearFailures();
    hub.clearFaults();
  });

  it('sends nothing before live access is on', async () => {
    for (const p of [
      app.client.call('hub.readme', { kind: 'model', id: GATED_ID }),
      app.client.call('hub.tree', { kind: 'model', id: GATED_ID }),
      app.client.call('hub.derived', { id: GATED_ID, relation: 'quantized' }),
      app.client.call('hub.repo', { kind: 'space', id: SPACE_ID }),
    ]) {
      const err = await fail(p);
      expect(err.code).toBe('forbidden');
      expect((err.details as { reason: string }).reason).toBe('hub-off');
    }
    expect(hub.requests).toHaveLength(0);
    await app.client.call('settings.update', { hubAccess: 'online' });
  });

  it('model details carry licence, gated state, safetensors parameters, Spaces, dates and lineage tags', async () => {
    const { model } = await app.client.call('hub.model', { id: GATED_ID });
    expect(model.cardData).toMatchObject({
      license: 'llama3.1',
      license_link: 'LICENSE',
      base_model: 'meta-llama/Llama-3.1-8B',
    });
    expect(model.gated).toBe('manual');
    expect(model.safetensors).toEqual({ parameters: { BF16: 8_030_261_248 }, total: 8_030_261_248 });
    expect(model.spaces).toEqual([SPACE_ID, 'fixture-lab/another-demo']);
    expect(model.createdAt).toBe('2024-01-01T00:00:00.000Z');
    expect(model.usedStorage).toBeGreaterThan(20e9);
    expect(baseModels(model.cardData, model.tags)).toEqual([{ id: 'meta-llama/Llama-3.1-8B', relation: 'finetune' }]);
  });

  it('lists the models derived from a base, per relation, by the base_model filter', async () => {
    const q = await app.client.call('hub.derived', { id: GATED_ID, relation: 'quantized' });
    expect(q.models.map((m) => m.id)).toEqual([
      'fixture-lab/Llama-3.1-8B-Instruct-GGUF',
      'second-lab/Llama-3.1-8B-Instruct-Q8-GGUF',
    ]);
    expect(q.more).toBe(false);
    const sent = hub.requestsTo('/api/models').at(-1)!.query;
    expect(sent.get('filter')).toBe(`base_model:quantized:${GATED_ID}`);
    expect(sent.get('sort')).toBe('downloads');
    const ft = await app.client.call('hub.derived', { id: GATED_ID, relation: 'finetune' });
    expect(ft.models.map((m) => m.id)).toEqual(['fixture-lab/llama-3.1-8b-chat-ft']);
    const none = await app.client.call('hub.derived', { id: 'google-bert/bert-base-uncased', relation: 'merge' });
    expect(none.models).toEqual([]);
  });

  it('a gated README without a token: says to accept the terms and add a token', async () => {
    const r = await app.client.call('hub.readme', { kind: 'model', id: GATED_ID });
    expect(r.markdown).toBeUndefined();
    expect(r.gated).toMatch(/gated: accept the terms on its page on huggingface.co, then add a Hugging Face token/);
    const sent = hub.requestsTo(`/${GATED_ID}/resolve/main/README.md`).at(-1)!;
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('README with a token: front matter split off, markdown kept, cached with its age for offline use', async () => {
    await app.client.call('secrets.set', { name: 'hfToken', value: token });
    try {
      const r = await app.client.call('hub.readme', { kind: 'model', id: GATED_ID });
      expect(r.frontMatter).toMatch(/^license: llama3.1\n/);
      expect(r.markdown).toMatch(/^\n# Llama 3.1 8B Instruct/);
      expect(r.markdown).not.toContain('extra_gated_prompt');
      expect(r.truncated).toBe(false);
      expect(r.freshness.source).toBe('network');
      const sent = hub.requestsTo(`/${GATED_ID}/resolve/main/README.md`).at(-1)!;
      expect(sent.headers.authorization).toBe(`Bearer ${token}`);

      await app.client.call('settings.update', { hubAccess: 'offline' });
      const before = hub.requests.length;
      const cached = await app.client.call('hub.readme', { kind: 'model', id: GATED_ID });
      expect(cached.markdown).toBe(r.markdown);
      expect(cached.freshness.source).toBe('cache');
      expect(cached.freshness.fetchedAt).toBe(r.freshness.fetchedAt);
      expect(hub.requests.length).toBe(before);
    } finally {
      await app.client.call('settings.update', { hubAccess: 'online' });
      await app.client.call('secrets.clear', { name: 'hfToken' });
    }
  });

  it('a 5 MB README is cut at the cap on a line break, and marked truncated', async () => {
    const r = await app.client.call('hub.readme', { kind: 'model', id: BIG_CARD_ID });
    expect(r.truncated).toBe(true);
    expect(r.size).toBeGreaterThan(5_000_000);
    expect(Buffer.byteLength(r.markdown!)).toBeLessThanOrEqual(README_MAX_BYTES);
    expect(Buffer.byteLength(r.markdown!)).toBeGreaterThan(README_MAX_BYTES * 0.9);
    expect(r.markdown!.endsWith('\n')).toBe(true);
  });

  it("broken markdown and hostile HTML come back as text: rendering is the page's (sanitised) job", async () => {
    const broken = await app.client.call('hub.readme', { kind: 'model', id: BROKEN_CARD_ID });
    expect(broken.markdown).toContain('never closed fence');
    const hostile = await app.client.call('hub.readme', { kind: 'model', id: HOSTILE_ID });
    expect(hostile.frontMatter).toBe('license: mit');
    expect(hostile.markdown).toContain('<script>');
  });

  it('a repo without a README: no card, no error', async () => {
    const r = await app.client.call('hub.readme', { kind: 'model', id: 'fixture-lab/no-card' });
    expect(r.markdown).toBeUndefined();
  });

  it('README of an unknown repo: 404 names it', async () => {
    const err = await fail(app.client.call('hub.readme', { kind: 'model', id: 'nobody/nothing' }));
    expect(err.code).toBe('not_found');
    expect(err.message).toMatch(/nobody\/nothing/);
  });

  it('dataset and Space READMEs come from /datasets/ and /spaces/', async () => {
    const d = await app.client.call('hub.readme', { kind: 'dataset', id: DATASET_ID });
    expect(d.markdown).toContain('# Speech corpus');
    const s = await app.client.call('hub.readme', { kind: 'space', id: SPACE_ID });
    expect(s.frontMatter).toContain('sdk: gradio');
    expect(hub.requestsTo(`/spaces/${SPACE_ID}/resolve/main/README.md`)).toHaveLength(1);
  });

  it('tree: recursive listing with sizes, folders and LFS entries', async () => {
    const t = await app.client.call('hub.tree', { kind: 'model', id: GATED_ID });
    expect(t.next).toBeUndefined();
    const byPath = new Map(t.entries.map((e) => [e.path, e]));
    expect(byPath.get('original')?.type).toBe('directory');
    expect(byPath.get('original/consolidated.00.pth')).toMatchObject({ type: 'file', size: 16_060_617_592 });
    expect(byPath.get('model-00001-of-00002.safetensors')?.lfs?.size).toBe(4_976_698_672);
    expect(byPath.get('config.json')?.lfs).toBeUndefined();
    const q = hub.requests.filter((r) => r.path === `/api/models/${GATED_ID}/tree/main`).at(-1)!.query;
    expect(q.get('recursive')).toBe('true');
    expect(q.get('expand')).toBe('false');
  });

  it('tree of 50,000 files: bounded, following Link pages, with a cursor for the rest', async () => {
    const first = await app.client.call('hub.tree', { kind: 'dataset', id: HUGE_DATASET_ID });
    expect(first.entries.length).toBe(TREE_MAX_ENTRIES);
    expect(first.next).toBeTruthy();
    expect(hub.requestsTo(`/api/datasets/${HUGE_DATASET_ID}/tree/main`)).toHaveLength(TREE_MAX_ENTRIES / TREE_PAGE);
    const second = await app.client.call('hub.tree', { kind: 'dataset', id: HUGE_DATASET_ID, cursor: first.next });
    expect(second.entries[0].path).not.toBe(first.entries[0].path);
    expect(new Set([...first.entries, ...second.entries].map((e) => e.path)).size).toBe(TREE_MAX_ENTRIES * 2);
  });

  it('a cursor cannot point the request at another path', async () => {
    const t = await app.client.call('hub.tree', { kind: 'model', id: GATED_ID, cursor: '../../evil?x=1' });
    expect(hub.requests.at(-1)!.path).toBe(`/api/models/${GATED_ID}/tree/main`);
    expect(Array.isArray(t.entries)).toBe(true);
  });

  it('dataset details: licence, downloads, likes, file count', async () => {
    const { repo } = await app.client.call('hub.repo', { kind: 'dataset', id: DATASET_ID });
    expect(repo).toMatchObject({
      kind: 'dataset',
      id: DATASET_ID,
      author: 'fixture-lab',
      downloads: 12_345,
      likes: 67,
    });
    expect(repo.cardData?.license).toBe('cc-by-4.0');
    expect(repo.fileCount).toBe(3);
  });

  it('Space details: sdk, runtime stage and the models it uses', async () => {
    const { repo } = await app.client.call('hub.repo', { kind: 'space', id: SPACE_ID });
    expect(repo).toMatchObject({
      kind: 'space',
      sdk: 'gradio',
      runtimeStage: 'RUNNING',
      models: [GATED_ID],
      likes: 321,
    });
  });

  it('private dataset: 401 says a token is needed; unknown Space: 404', async () => {
    const e401 = await fail(app.client.call('hub.repo', { kind: 'dataset', id: 'acme/private-dataset' }));
    expect(e401.code).toBe('unauthorized');
    expect(e401.message).toMatch(/token/);
    const e404 = await fail(app.client.call('hub.repo', { kind: 'space', id: 'nobody/nothing' }));
    expect(e404.code).toBe('not_found');
  });

  it('403, 429, 5xx and truncated JSON on the file list: clear messages, and no hang', async () => {
    hub.fail(`/api/models/google-bert`, { status: 403, body: { error: 'Forbidden' }, times: 1 });
    const e403 = await fail(app.client.call('hub.tree', { kind: 'model', id: 'google-bert/bert-base-uncased' }));
    expect(e403.code).toBe('forbidden');
    expect(e403.message).toMatch(/request access/);
    hub.fail(`/api/models/google-bert`, { status: 429, headers: { 'retry-after': '30' } });
    const e429 = await fail(app.client.call('hub.tree', { kind: 'model', id: 'google-bert/bert-base-uncased' }));
    expect(e429.code).toBe('rate_limited');
    expect(e429.message).toMatch(/30 s/);
    hub.clearFailures();
    hub.fail(`/api/models/google-bert`, { status: 503, times: 3 });
    const e503 = await fail(app.client.call('hub.tree', { kind: 'model', id: 'google-bert/bert-base-uncased' }));
    expect(e503.code).toBe('unavailable');
    expect(e503.message).toMatch(/HTTP 503/);
    hub.clearFailures();
    hub.fault(`/api/spaces/${SPACE_ID}`, {
      status: 200,
      body: '{"id": "fixture-lab/llama-ch',
      contentType: 'application/json',
    });
    // The Space was fetched before: the cached copy is served, marked with why, instead of the broken answer.
    const kept = await app.client.call('hub.repo', { kind: 'space', id: SPACE_ID });
    expect(kept.repo.sdk).toBe('gradio');
    expect(kept.freshness.source).toBe('cache');
    expect(kept.freshness.reason).toMatch(/unreadable answer/);
    hub.clearFaults();
    hub.fault(`/api/datasets/${HUGE_DATASET_ID}`, {
      status: 200,
      body: '[{"type": "fi',
      contentType: 'application/json',
    });
    const fresh = await fail(app.client.call('hub.repo', { kind: 'dataset', id: HUGE_DATASET_ID }));
    expect(fresh.code).toBe('upstream');
    expect(fresh.message).toMatch(/unreadable answer/);
  });
  it('"Use this dataset": pandas reads a data file the tree lists; a dataset without one reads the Parquet conversion', async () => {
    const tree = await app.client.call('hub.tree', { kind: 'dataset', id: NO_CARD_DATASET_ID });
    const files = tree.entries.filter((e) => e.type === 'file').map((e) => e.path);
    const { snippets } = await app.client.call('snippets.repo', { kind: 'dataset', id: NO_CARD_DATASET_ID, files });
    const pandas = snippets.find((s) => s.client === 'pandas')!;
    expect(pandas.content).toContain(`pd.read_csv("hf://datasets/${NO_CARD_DATASET_ID}/scores.csv")`);
    expect(snippets.map((s) => s.client)).toEqual(['datasets', 'pandas', 'huggingface_hub', 'hf']);
    const none = await app.client.call('snippets.repo', { kind: 'dataset', id: DATASET_ID });
    expect(none.snippets[1].content).toContain('@~parquet/default/train/0000.parquet');
    const bad = await fail(app.client.call('snippets.repo', { kind: 'model' as 'dataset', id: DATASET_ID }));
    expect(bad.code).toBe('invalid_input');
  });

  it('a Space: its app on hf.space and gradio_client snippets from its SDK', async () => {
    const { repo } = await app.client.call('hub.repo', { kind: 'space', id: SPACE_ID });
    const r = await app.client.call('snippets.repo', { kind: 'space', id: SPACE_ID, sdk: repo.sdk });
    expect(r.appUrl).toBe('https://fixture-lab-llama-chat.hf.space');
    expect(r.snippets.map((s) => s.client)).toEqual(['gradio_client', '@gradio/client']);
    expect(r.snippets[0].content).toContain(`Client("${SPACE_ID}")`);
  });

  it('a README the Hub answers 404 for on a dataset without one: no card, no error', async () => {
    const r = await app.client.call('hub.readme', { kind: 'dataset', id: NO_CARD_DATASET_ID });
    expect(r.markdown).toBeUndefined();
  });

  it('a GGUF file the Hub does not serve: the note never says a listed file "is not in" the repo', async () => {
    const err = await fail(app.client.call('hub.ggufHeader', { id: BIG_CARD_ID, file: 'big-Q4_K_M.gguf' }));
    expect(err.code).toBe('not_found');
    expect(err.message).not.toMatch(/is not in/);
    expect(err.message).toMatch(/big-Q4_K_M\.gguf \(404\) although the repo lists it: reload the page/);
  });
});
