import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HubRepoSummary, HubSort } from '@shared/contract/hub-search';
import { AppError } from '@shared/errors';
import { MODEL_LIST_EXPAND } from '../../electron/main/services/hub/search';
import { defaultHubModels, startHubFixture, type HubFixture, type HubFixtureModel } from '../fixtures/hub';
import { defaultHubDatasets, defaultHubSpaces } from '../fixtures/hub-list-data';
import { startTestApp, type TestApp } from '../helpers/app';

const fail = (p: Promise<unknown>) =>
  p.then(() => undefined as unknown as AppError).catch((e: unknown) => e as AppError);

/** Models beyond the defaults, so every filter has something to keep and something to drop. */
const extraModels: HubFixtureModel[] = [
  {
    id: 'mlx-community/Llama-3.2-1B-Instruct-4bit',
    pipeline_tag: 'text-generation',
    library_name: 'mlx',
    tags: ['mlx', 'llama', 'text-generation', 'license:llama3.2'],
    downloads: 40_000,
    likes: 30,
    trendingScore: 9,
    createdAt: '2024-10-01T00:00:00.000Z',
    lastModified: '2025-05-02T00:00:00.000Z',
  },
  {
    id: 'bartowski/Qwen2.5-7B-Instruct-GGUF',
    pipeline_tag: 'text-generation',
    library_name: 'gguf',
    tags: ['gguf', 'qwen2', 'text-generation', 'license:apache-2.0'],
    downloads: 90_000,
    likes: 80,
    trendingScore: 14,
    createdAt: '2024-09-20T00:00:00.000Z',
    lastModified: '2024-12-01T00:00:00.000Z',
  },
];

/** The Hub's own key for a summary field, to check an order. */
const sortField: Record<HubSort, (r: HubRepoSummary) => number> = {
  trending: () => 0,
  downloads: (r) => r.downloads ?? 0,
  likes: (r) => r.likes ?? 0,
  updated: (r) => Date.parse(r.lastModified ?? ''),
  created: (r) => Date.parse(r.createdAt ?? ''),
};
const isDescending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] >= x);

describe('hub.search through the router (fixture Hub)', () => {
  let hub: HubFixture;
  let app: TestApp;

  beforeAll(async () => {
    hub = await startHubFixture({ models: [...defaultHubModels(), ...extraModels] });
    app = await startTestApp({ env: { HF_ENDPOINT: hub.url }, hub: { sleep: async () => {}, timeoutMs: 2000 } });
  });
  afterAll(async () => {
    await app.close();
    await hub.stop();
  });
  beforeEach(() => {
    hub.clearFailures();
    hub.clearFaults();
  });

  const lastQuery = (kind: string) => hub.requestsTo(`/api/${kind}`).at(-1)!.query;

  it('sends nothing before the first-run choice, for any kind', async () => {
    expect((await app.client.call('settings.get', {})).values.hubAccess).toBe('ask');
    for (const kind of ['models', 'datasets', 'spaces'] as const) {
      const err = await fail(app.client.call('hub.search', { kind, search: 'whisper' }));
      expect(err.code).toBe('forbidden');
    }
    expect(hub.requests).toHaveLength(0);
    await app.client.call('settings.update', { hubAccess: 'online' });
  });

  it('models: the first page asks with the Hub parameters and expand[] for the fields the list lacks', async () => {
    const res = await app.client.call('hub.search', { search: 'whisper', limit: 20 });
    const q = lastQuery('models');
    expect([...q.keys()].filter((k) => k !== 'expand[]')).toEqual(['search', 'sort', 'direction', 'limit']);
    expect(q.get('search')).toBe('whisper');
    expect(q.get('sort')).toBe('trendingScore');
    expect(q.get('direction')).toBe('-1');
    expect(q.get('limit')).toBe('20');
    expect(q.getAll('expand[]')).toEqual([...MODEL_LIST_EXPAND]);
    expect(res.kind).toBe('models');
    expect(res.results).toHaveLength(20);
    const first = res.results[0];
    const src = defaultHubModels().find((m) => m.id === first.id)!;
    expect(first).toMatchObject({
      kind: 'models',
      author: first.id.split('/')[0],
      pipeline_tag: src.pipeline_tag,
      library_name: src.library_name,
      downloads: src.downloads,
      likes: src.likes,
      private: false,
      gated: false,
    });
    expect(Date.parse(first.lastModified!)).not.toBeNaN();
    expect(Date.parse(first.createdAt!)).not.toBeNaN();
  });

  it.each([
    ['trending', 'trendingScore'],
    ['downloads', 'downloads'],
    ['likes', 'likes'],
    ['updated', 'lastModified'],
    ['created', 'createdAt'],
  ] as const)('models sorted by %s: sort=%s&direction=-1, and the answer in that order', async (sort, key) => {
    const res = await app.client.call('hub.search', { sort, limit: 100 });
    expect(lastQuery('models').get('sort')).toBe(key);
    expect(lastQuery('models').get('direction')).toBe('-1');
    if (sort === 'trending') {
      const score = new Map([...defaultHubModels(), ...extraModels].map((m) => [m.id, m.trendingScore ?? 0]));
      expect(isDescending(res.results.map((r) => score.get(r.id)!))).toBe(true);
      expect(res.results[0].id).toBe('bartowski/Qwen2.5-7B-Instruct-GGUF');
    } else expect(isDescending(res.results.map(sortField[sort]))).toBe(true);
  });

  it.each([
    [{ pipeline_tag: 'automatic-speech-recognition' }, { pipeline_tag: 'automatic-speech-recognition' }],
    [{ library: 'ctranslate2' }, { library: 'ctranslate2' }],
    [{ license: 'apache-2.0' }, { filter: 'license:apache-2.0' }],
    [{ author: 'openai' }, { author: 'openai' }],
    [{ runsLocally: 'gguf' }, { filter: 'gguf' }],
    [{ runsLocally: 'mlx' }, { filter: 'mlx' }],
    [{ provider: true }, { inference_provider: 'all' }],
  ] as const)('models filtered by %j reach the Hub as %j', async (input, params) => {
    const res = await app.client.call('hub.search', { ...input, limit: 100 });
    const q = lastQuery('models');
    for (const [k, v] of Object.entries(params)) expect(q.getAll(k)).toEqual([v]);
    const all = [...defaultHubModels(), ...extraModels].filter((m) => !m.private);
    const keep = (m: HubFixtureModel): boolean => {
      const [k, v] = Object.entries(input)[0];
      if (k === 'pipeline_tag') return m.pipeline_tag === v;
      if (k === 'library') return m.library_name === v || (m.tags ?? []).includes(String(v));
      if (k === 'license') return (m.tags ?? []).includes(`license:${v}`);
      if (k === 'author') return m.id.startsWith(`${v}/`);
      if (k === 'runsLocally') return (m.tags ?? []).includes(String(v));
      return !!m.inferenceProviderMapping;
    };
    const expected = all.filter(keep).map((m) => m.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    expect(res.results.map((r) => r.id).sort()).toEqual(expected.sort());
  });

  it('datasets: search, Link paging to the last page, the list fields as the Hub sends them', async () => {
    const expected = defaultHubDatasets()
      .filter((d) => d.id.includes('speech'))
      .sort((a, b) => (b.downloads ?? 0) - (a.downloads ?? 0));
    const seen: HubRepoSummary[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await app.client.call(
        'hub.search',
        cursor ? { kind: 'datasets', cursor } : { kind: 'datasets', search: 'speech', sort: 'downloads' },
      );
      expect(page.kind).toBe('datasets');
      seen.push(...page.results);
      cursor = page.next;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(seen.map((d) => d.id)).toEqual(expected.map((d) => d.id));
    const reqs = hub.requestsTo('/api/datasets').slice(-2);
    expect(Object.fromEntries(reqs[0].query)).toEqual({
      search: 'speech',
      sort: 'downloads',
      direction: '-1',
      limit: '30',
    });
    expect(reqs[1].query.get('cursor')).toBeTruthy();
    expect(seen[0]).toMatchObject({
      kind: 'datasets',
      author: expected[0].id.split('/')[0],
      description: expected[0].description,
      downloads: expected[0].downloads,
      likes: expected[0].likes,
      tags: expected[0].tags,
      gated: false,
    });
    const generated = defaultHubDatasets().find((d) => d.id === 'kotoba/speech-ja')!;
    expect(seen.find((d) => d.id === generated.id)).toMatchObject({
      createdAt: generated.createdAt,
      lastModified: generated.lastModified,
    });
  });

  it('datasets: task, licence and author become filter=task_categories:…, filter=license:…, author=', async () => {
    const res = await app.client.call('hub.search', {
      kind: 'datasets',
      pipeline_tag: 'automatic-speech-recognition',
      license: 'mit',
      author: 'kotoba',
    });
    const q = lastQuery('datasets');
    expect(q.getAll('filter')).toEqual(['task_categories:automatic-speech-recognition', 'license:mit']);
    expect(q.get('author')).toBe('kotoba');
    const expected = defaultHubDatasets().filter(
      (d) =>
        d.id.startsWith('kotoba/') &&
        d.tags!.includes('license:mit') &&
        d.tags!.includes('task_categories:automatic-speech-recognition'),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(res.results.map((r) => r.id).sort()).toEqual(expected.map((d) => d.id).sort());
  });

  it('Spaces: SDK filter, sdk in each row, and "downloads" orders by likes (Spaces have no downloads)', async () => {
    const res = await app.client.call('hub.search', {
      kind: 'spaces',
      search: 'whisper',
      sdk: 'docker',
      sort: 'downloads',
    });
    const q = lastQuery('spaces');
    expect(q.getAll('filter')).toEqual(['docker']);
    expect(q.get('sort')).toBe('likes');
    const expected = defaultHubSpaces()
      .filter((s) => s.id.includes('whisper') && s.sdk === 'docker')
      .sort((a, b) => (b.likes ?? 0) - (a.likes ?? 0));
    expect(res.results.map((r) => r.id)).toEqual(expected.map((s) => s.id));
    expect(res.results.every((r) => r.sdk === 'docker' && r.kind === 'spaces')).toBe(true);
    const paged = await app.client.call('hub.search', { kind: 'spaces', search: 'whisper', sort: 'created' });
    expect(lastQuery('spaces').get('sort')).toBe('createdAt');
    expect(paged.next).toBeTruthy();
    expect(isDescending(paged.results.map(sortField.created))).toBe(true);
  });

  it('429: says when to retry', async () => {
    hub.fail('/api/spaces', { status: 429, headers: { 'retry-after': '30' }, body: { error: 'Too many requests' } });
    const err = await fail(app.client.call('hub.search', { kind: 'spaces', search: 'flux' }));
    expect(err.code).toBe('rate_limited');
    expect(err.message).toMatch(/Try again in 30 s/);
  });

  it('5xx: names the Hub and the search', async () => {
    hub.fail('/api/datasets', { status: 500, body: { error: 'Internal Error' } });
    const err = await fail(app.client.call('hub.search', { kind: 'datasets', search: 'mnist' }));
    expect(err.code).toBe('upstream');
    expect(err.message).toMatch(/having trouble \(HTTP 500\) with the dataset search/);
  });

  it('truncated JSON: an unreadable answer, not a crash', async () => {
    hub.fault('/api/models', {
      status: 200,
      body: '[{"_id":"x","id":"openai/whisper-tiny","likes":',
      contentType: 'application/json',
      times: 1,
    });
    const err = await fail(app.client.call('hub.search', { search: 'truncated-probe' }));
    expect(err.code).toBe('upstream');
    expect(err.message).toMatch(/unreadable answer for the model search/);
  });

  it('an answer that is not a list: a clear message', async () => {
    hub.fault('/api/spaces', { status: 200, body: { error: 'maintenance' }, times: 1 });
    const err = await fail(app.client.call('hub.search', { kind: 'spaces', search: 'not-a-list' }));
    expect(err.code).toBe('upstream');
    expect(err.message).toMatch(/something other than a list for the Space search/);
  });

  it('offline: a page seen before opens from the cache with its age and no request; an unseen one is refused', async () => {
    const live = await app.client.call('hub.search', { kind: 'datasets', search: 'squad' });
    expect(live.results.map((r) => r.id)).toEqual(['rajpurkar/squad']);
    await app.client.call('settings.update', { hubAccess: 'offline' });
    try {
      const before = hub.requests.length;
      const cached = await app.client.call('hub.search', { kind: 'datasets', search: 'squad' });
      expect(cached.freshness.source).toBe('cache');
      expect(cached.freshness.fetchedAt).toBe(live.freshness.fetchedAt);
      expect(cached.results).toEqual(live.results);
      const err = await fail(app.client.call('hub.search', { kind: 'datasets', search: 'never-asked' }));
      expect(err.code).toBe('forbidden');
      expect((err.details as { reason?: string }).reason).toBe('hub-off');
      expect(hub.requests.length).toBe(before);
    } finally {
      await app.client.call('settings.update', { hubAccess: 'online' });
    }
  });

  it('bad input is refused by the contract before anything is sent', async () => {
    const before = hub.requests.length;
    for (const input of [
      { kind: 'users' },
      { sort: 'random' },
      { license: 'mit&filter=x' },
      { author: '../etc' },
      { sdk: 'flask' },
      { limit: 1000 },
    ]) {
      const err = await fail(app.client.call('hub.search', input as never));
      expect(err.code).toBe('invalid_input');
    }
    expect(hub.requests.length).toBe(before);
  });
});
