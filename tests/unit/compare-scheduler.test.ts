import { describe, expect, it } from 'vitest';
import { schedule, type PaneNeed } from '../../electron/main/services/compare/scheduler';
import { paneLabels, blindLabels, seededRandom, shuffledOrder } from '../../electron/main/services/compare/labels';
import type { CompareAnswer, ComparePane } from '@shared/contract/compare';
import type { ChatParams } from '@shared/contract/chat-conversation';
import { gatherMemory } from '../../electron/main/services/compare/memory';
import { Engines, type EngineOptions } from '../../electron/main/services/engines/registry';
import { createLogger } from '../../electron/main/services/log';
import { medianFigures } from '../../electron/main/services/compare/answer';

const GB = 1e9;
const ollama = (name: string, bytes: number | undefined, extra: Partial<PaneNeed> = {}): PaneNeed => ({
  where: 'ollama',
  engine: 'Ollama',
  name,
  key: `ollama\n${name}`,
  instance: '',
  loaded: false,
  ...(bytes !== undefined ? { bytes } : {}),
  ...extra,
});
const remote = (name: string): PaneNeed => ({
  where: 'remote',
  engine: 'The server',
  name,
  key: `remote\n${name}`,
  instance: '',
  loaded: false,
});

/** The parallel vs one-after-another decision, from memory figures alone. */
describe('compare scheduler', () => {
  it('runs two models together when they fit with headroom, and says the sums', () => {
    const plan = schedule({ freeBytes: 14.2 * GB, panes: [ollama('a', 2 * GB), ollama('b', 3.1 * GB)] });
    expect(plan.mode).toBe('parallel');
    expect(plan.reason).toBe('Both models fit in memory together (5.1 GB of 14.2 GB free).');
    expect(plan.panes).toEqual([
      { where: 'ollama', bytes: 2 * GB, loaded: false },
      { where: 'ollama', bytes: 3.1 * GB, loaded: false },
    ]);
  });

  it('runs them one after another when together they do not fit (headroom included)', () => {
    const plan = schedule({ freeBytes: 12.1 * GB, panes: [ollama('a', 9 * GB), ollama('b', 9 * GB)] });
    expect(plan.mode).toBe('sequential');
    expect(plan.reason).toBe('Together they need 18.0 GB and 12.1 GB is free: they run one after another.');
    // 5 GB of 5.5 GB free: fits, but not with the headroom the OS and the KV caches need.
    expect(schedule({ freeBytes: 5.5 * GB, panes: [ollama('a', 2.5 * GB), ollama('b', 2.5 * GB)] }).mode).toBe(
      'sequential',
    );
  });

  it('an unknown size (a model the server does not have) means one after another', () => {
    const plan = schedule({ freeBytes: 100 * GB, panes: [ollama('a', 2 * GB), ollama('gone:latest', undefined)] });
    expect(plan.mode).toBe('sequential');
    expect(plan.reason).toBe('How much memory gone:latest needs is not known: they run one after another.');
    expect(plan.panes[1]).toEqual({ where: 'ollama', loaded: false });
  });

  it('the same model twice with the same settings is counted once', () => {
    const plan = schedule({
      freeBytes: 6 * GB,
      panes: [ollama('a', 4 * GB), ollama('a', 4 * GB), ollama('b', 1 * GB)],
    });
    expect(plan.mode).toBe('parallel');
    expect(plan.reason).toBe('Both models fit in memory together (5.0 GB of 6.0 GB free).');
    const one = schedule({ freeBytes: 1 * GB, panes: [ollama('a', 4 * GB), ollama('a', 4 * GB)] });
    expect(one.mode).toBe('parallel');
    expect(one.reason).toBe('One model runs on this machine (a, 4.0 GB): they all answer at once.');
  });

  it('the same model with another num_ctx is a reload: one after another, whatever the memory', () => {
    const plan = schedule({
      freeBytes: 100 * GB,
      panes: [ollama('a', 2 * GB), ollama('a', 2 * GB, { instance: '8192' })],
    });
    expect(plan.mode).toBe('sequential');
    expect(plan.reason).toMatch(/^a is asked with two context lengths, and Ollama holds it with one at a time/);
  });

  it('more panes on one model than its engine answers at once run one after another', () => {
    const local: PaneNeed = {
      where: 'local',
      engine: 'The built-in engine',
      name: 'tiny-Q8_0',
      key: 'local\nl_x',
      instance: '',
      loaded: true,
      bytes: GB,
      parallel: 1,
    };
    const plan = schedule({ freeBytes: 100 * GB, panes: [local, { ...local }] });
    expect(plan.mode).toBe('sequential');
    expect(plan.reason).toBe(
      'The built-in engine answers with tiny-Q8_0 one request at a time: they run one after another.',
    );
    // Loaded with two sequences: two panes answer together, a third would wait.
    const two = { ...local, parallel: 2 };
    expect(schedule({ freeBytes: 100 * GB, panes: [two, two] }).mode).toBe('parallel');
    expect(schedule({ freeBytes: 100 * GB, panes: [two, two, two] }).reason).toBe(
      'The built-in engine answers with tiny-Q8_0 2 requests at a time: they run one after another.',
    );
  });

  it('remote panes never count: alone they all run at once, beside local ones they add nothing', () => {
    expect(schedule({ freeBytes: 0, panes: [remote('x'), remote('y')] })).toMatchObject({
      mode: 'parallel',
      reason: 'Every pane runs on another server: they all answer at once.',
      panes: [
        { where: 'remote', loaded: false },
        { where: 'remote', loaded: false },
      ],
    });
    const mixed = schedule({ freeBytes: 4 * GB, panes: [ollama('a', 1 * GB), remote('x'), ollama('b', 1 * GB)] });
    expect(mixed.mode).toBe('parallel');
    expect(mixed.reason).toBe('Both models fit in memory together (2.0 GB of 4.0 GB free).');
  });

  it('memory an already loaded model holds counts as free for it', () => {
    const panes = [ollama('a', 6 * GB, { loaded: true }), ollama('b', 2 * GB)];
    const plan = schedule({ freeBytes: 3.5 * GB, panes });
    expect(plan.mode).toBe('parallel');
    expect(plan.reason).toBe('Both models fit in memory together (8.0 GB of 9.5 GB free).');
    expect(plan.panes[0].loaded).toBe(true);
    expect(schedule({ freeBytes: 3.5 * GB, panes: [{ ...panes[0], loaded: false }, panes[1]] }).mode).toBe(
      'sequential',
    );
  });

  it('three or four models: "All 3 fit…"', () => {
    const plan = schedule({ freeBytes: 20 * GB, panes: [ollama('a', GB), ollama('b', GB), ollama('c', GB)] });
    expect(plan.reason).toBe('All 3 models fit in memory together (3.0 GB of 20.0 GB free).');
  });
});

describe('compare labels', () => {
  const pane = (p: Partial<ComparePane>): ComparePane => ({
    backend: 'ollama',
    model: 'llama3.2:latest',
    provider: 'auto',
    params: {},
    ...p,
  });
  // Each engine says its pane's label (EngineKind.describe): a built-in model's name, an endpoint's name.
  const engines = engineSet({
    local: { model: async (id: string) => ({ id, name: 'Qwen3-0.6B-Q8_0' }) },
    endpoints: { connection: () => ({ name: 'My box' }) },
  });
  const labelsOf = async (panes: ComparePane[], params: ChatParams) =>
    paneLabels(panes, { params }, await Promise.all(panes.map((p) => engines.kind(p.backend).describe(p))));

  it('names the engine and model, and adds the setting two same panes differ in', async () => {
    const labels = await labelsOf(
      [
        pane({}),
        pane({ params: { temperature: 0.2 } }),
        pane({ backend: 'local', model: 'l_1' }),
        pane({ backend: 'provider', model: 'openai/gpt-oss-20b', provider: 'together' }),
      ],
      { temperature: 0.8 },
    );
    expect(labels).toEqual([
      'Ollama · llama3.2:latest (temperature 0.8)',
      'Ollama · llama3.2:latest (temperature 0.2)',
      'Built-in · Qwen3-0.6B-Q8_0',
      'HF router · openai/gpt-oss-20b via together',
    ]);
    expect(await labelsOf([pane({ backend: 'endpoint', endpoint: 'e_1', model: 'm' }), pane({})], {})).toEqual([
      'My box · m',
      'Ollama · llama3.2:latest',
    ]);
    expect(await labelsOf([pane({}), pane({})], {})).toEqual([
      'Ollama · llama3.2:latest (1)',
      'Ollama · llama3.2:latest (2)',
    ]);
  });

  it('blind labels and a seeded shuffle that repeats', () => {
    expect(blindLabels(3)).toEqual(['Model A', 'Model B', 'Model C']);
    const a = shuffledOrder(4, seededRandom(7));
    expect(shuffledOrder(4, seededRandom(7))).toEqual(a);
    expect([...a].sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('compare memory figures and medians', () => {
  const running = (name: string, size: number, context_length: number) => ({
    name,
    model: name,
    size,
    size_vram: size,
    digest: 'd',
    details: {},
    expires_at: '2030-01-01T00:00:00Z',
    context_length,
  });
  const tag = (name: string, size: number) => ({ name, model: name, size, digest: 'd', modified_at: '', details: {} });
  const ollama = {
    ps: async () => ({ models: [running('a:latest', 6 * GB, 4096)] }),
    list: async () => ({ models: [tag('a:latest', 4 * GB), tag('b:latest', 2 * GB)] }),
  };
  const hardware = (unified: boolean) => ({
    view: async () => {
      const h = {
        ramTotal: 32 * GB,
        ramFree: 10 * GB,
        gpus: [{ name: 'g', vendor: 'nvidia' as const, vramTotal: 8 * GB, vramFree: 3 * GB }],
        unified,
      };
      return { detected: h, effective: h, probes: [], source: 'detected' as const };
    },
  });
  const pane = (model: string, num_ctx?: number) => ({
    pane: { backend: 'ollama' as const, model, provider: 'auto', params: {} },
    params: num_ctx ? { num_ctx } : {},
  });

  it('a loaded Ollama model counts its /api/ps size, another its /api/tags size; free is RAM plus free VRAM', async () => {
    const engines = engineSet({ ollama });
    const m = await gatherMemory([pane('a'), pane('b'), pane('c')], { engines, hardware: hardware(false) });
    expect(m.freeBytes).toBe(13 * GB);
    expect(m.panes.map((p) => [p.bytes, p.loaded])).toEqual([
      [6 * GB, true],
      [2 * GB, false],
      [undefined, false],
    ]);
    // Unified memory is the RAM already; a context length other than the loaded one is a reload.
    const u = await gatherMemory([pane('a', 8192)], { engines, hardware: hardware(true) });
    expect(u.freeBytes).toBe(10 * GB);
    expect(u.panes[0]).toMatchObject({ bytes: 4 * GB, loaded: false, instance: '8192' });
  });

  it('medians each figure over the complete answers only', () => {
    const a = (status: CompareAnswer['status'], ttftMs: number, tokensPerSecond?: number): CompareAnswer => ({
      content: '',
      status,
      figures: { ttftMs, ...(tokensPerSecond ? { tokensPerSecond } : {}), source: 'server' },
    });
    expect(
      medianFigures([a('complete', 30, 10), a('complete', 10), a('stopped', 1, 1), a('complete', 20, 20)]),
    ).toEqual({
      ttftMs: 20,
      tokensPerSecond: 15,
      source: 'server',
    });
    expect(medianFigures([a('error', 5)])).toBeUndefined();
  });
});

/** The engines with stand-ins for the servers they ask (Ollama's lists, a local model's name, an endpoint's name). */
function engineSet(parts: { ollama?: unknown; local?: unknown; endpoints?: unknown }): Engines {
  return new Engines({
    ollama: parts.ollama as EngineOptions['ollama'],
    log: createLogger(),
    router: () => ({ routerUrl: 'http://127.0.0.1:9', billTo: '' }),
    hfToken: () => undefined,
    routerFetch: fetch,
    local: parts.local as EngineOptions['local'],
    endpoints: parts.endpoints as EngineOptions['endpoints'],
  });
}
