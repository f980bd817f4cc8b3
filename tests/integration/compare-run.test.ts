import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompareEvent, CompareSetInput } from '@shared/contract/compare';
import { compareSetSchema } from '@shared/contract/compare';
import { CompareRunner, type CompareInput } from '../../electron/main/services/compare/runner';
import { seededRandom, shuffledOrder } from '../../electron/main/services/compare/labels';
import { Engines } from '../../electron/main/services/engines/registry';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startOpenAIServer, type OpenAIServerFixture } from '../fixtures/openai-server';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

const MB = 1e6;
const LOAD_MS = 800;

/** The runner over the real Ollama service and engines, against the Ollama fixture; free memory as given. */
describe('compare runner against the Ollama fixture', () => {
  let ollama: OllamaFixture;
  let free = 16e9;
  let runner: (random?: () => number) => CompareRunner;

  beforeAll(async () => {
    ollama = await startOllamaFixture({
      models: [fixtureModel('alpha', { size: 50 * MB }), fixtureModel('beta', { size: 80 * MB })],
    });
    const log = createLogger();
    const service = new OllamaService({ host: () => ollama.url, keyedFetch: fetch, log, timeoutMs: 5_000 });
    const engines = new Engines({
      ollama: service,
      log,
      router: () => ({ routerUrl: 'http://127.0.0.1:9', billTo: '' }),
      hfToken: () => undefined,
      routerFetch: fetch,
    });
    const hardware = {
      view: async () => {
        const h = { ramTotal: 32e9, ramFree: free, gpus: [], unified: false };
        return { detected: h, effective: h, probes: [], source: 'detected' as const };
      },
    };
    runner = (random) => new CompareRunner({ engines, log, hardware, random });
  });
  afterAll(() => ollama?.stop());
  beforeEach(() => {
    ollama.running = [];
    ollama.requests.length = 0;
    ollama.chunkIntervalMs = 2;
    ollama.chatScript = (r) => ({ content: tokens(`${r.model} says hello to you`) });
    ollama.loadDelayMs.clear();
    free = 16e9;
  });

  const input = (set: Partial<CompareSetInput> = {}): CompareInput => ({
    ...compareSetSchema.parse({
      panes: [
        { backend: 'ollama', model: 'alpha' },
        { backend: 'ollama', model: 'beta' },
      ],
      ...set,
    }),
    prompt: 'Say hello',
  });

  async function run(i: CompareInput, opts: { abort?: AbortController; random?: () => number } = {}) {
    const events: CompareEvent[] = [];
    const signal = (opts.abort ?? new AbortController()).signal;
    const result = await runner(opts.random).run('r_test', i, { signal, emit: (e) => events.push(e) });
    return { result, events };
  }

  it('two models: both answers with their figures, load time apart from the time to first token', async () => {
    ollama.loadDelayMs.set('alpha:latest', LOAD_MS);
    const { result, events } = await run(input({ system: 'Be brief.' }));
    expect(events[0]).toMatchObject({
      type: 'start',
      id: 'r_test',
      plan: { mode: 'parallel', reason: 'Both models fit in memory together (0.1 GB of 16.0 GB free).' },
      slots: [{ label: 'Ollama · alpha' }, { label: 'Ollama · beta' }],
    });
    expect(result.plan.panes).toEqual([
      { where: 'ollama', bytes: 50 * MB, loaded: false },
      { where: 'ollama', bytes: 80 * MB, loaded: false },
    ]);
    const [a, b] = result.slots;
    expect(a.answers).toHaveLength(1);
    expect(a.answers[0]).toMatchObject({ status: 'complete', content: 'alpha says hello to you' });
    expect(b.answers[0]).toMatchObject({ status: 'complete', content: 'beta says hello to you' });
    expect(a.answers[0].figures).toMatchObject({ source: 'server', evalTokens: 5 });
    expect(a.median).toMatchObject({ evalTokens: 5 });
    // The load is its own step, and its time is not in the time to first token.
    expect(a.loadMs).toBeGreaterThanOrEqual(LOAD_MS);
    expect(a.answers[0].figures!.ttftMs).toBeLessThan(LOAD_MS);
    const chats = ollama.requestsTo('/api/chat').map((r) => r.body as { model: string; messages: unknown[] });
    expect(chats.slice(0, 2).every((c) => c.messages.length === 0)).toBe(true);
    expect(chats.slice(2).map((c) => c.messages)).toEqual([
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
    ]);
    // Events: loading then loaded then streaming deltas that add up to the answer, then run-end and done.
    const alpha = events
      .filter((e) => 'slot' in e && e.slot === 0)
      .map((e) => e.type + ('state' in e ? `:${e.state}` : ''));
    expect(alpha[0]).toBe('state:waiting');
    expect(alpha.slice(1, 4)).toEqual(['state:loading', 'loaded', 'state:streaming']);
    expect(alpha.slice(-2)).toEqual(['run-end', 'state:done']);
    const text = events.flatMap((e) => (e.type === 'delta' && e.slot === 0 ? [e.content] : [])).join('');
    expect(text).toBe('alpha says hello to you');
    // A second comparison finds both loaded: no load time to report.
    const again = await run(input());
    expect(again.result.plan.panes.map((p) => p.loaded)).toEqual([true, true]);
    expect(again.result.slots[0].loadMs).toBeUndefined();
  });

  it("one pane's model missing: that pane shows its error, the other answers", async () => {
    const { result, events } = await run(
      input({
        panes: [
          { backend: 'ollama', model: 'alpha' },
          { backend: 'ollama', model: 'ghost' },
        ],
      }),
    );
    expect(result.plan.mode).toBe('sequential');
    expect(result.plan.reason).toBe('How much memory ghost needs is not known: they run one after another.');
    expect(result.slots[0].answers[0]).toMatchObject({ status: 'complete', content: 'alpha says hello to you' });
    expect(result.slots[1].answers[0]).toMatchObject({
      status: 'error',
      content: '',
      error: { code: 'not_found', message: 'ghost is not on your Ollama server. Pull it, then try again.' },
    });
    expect(events.some((e) => e.type === 'run-end' && e.slot === 1 && e.answer.status === 'error')).toBe(true);
    // One after another: the second slot loads only once the first is done.
    const order = events.map((e) => ('slot' in e && 'state' in e ? `${e.slot}:${e.state}` : ''));
    expect(order.indexOf('1:loading')).toBeGreaterThan(order.indexOf('0:done'));
  });

  it('a dead server mid-answer ends that pane with an error; a 500 on the other too, and the run returns', async () => {
    ollama.chatScript = (r) =>
      r.model === 'beta'
        ? { content: ['x'], error: { afterChunks: 0, message: 'boom', status: 500 } }
        : { content: tokens('alpha fine') };
    const { result } = await run(input());
    expect(result.slots[0].answers[0].status).toBe('complete');
    expect(result.slots[1].answers[0]).toMatchObject({ status: 'error', error: { message: 'boom' } });
  });

  it('Stop mid-stream: every pane ends stopped, its text kept, with measured figures', async () => {
    ollama.chunkIntervalMs = 20;
    ollama.chatScript = (r) => ({ content: Array.from({ length: 300 }, (_, i) => `${r.model}${i} `) });
    const abort = new AbortController();
    const seen = [0, 0];
    const events: CompareEvent[] = [];
    const done = runner().run('r_stop', input(), {
      signal: abort.signal,
      emit: (e) => {
        events.push(e);
        if (e.type === 'delta') seen[e.slot] += e.content?.length ?? 0;
        if (seen.every((n) => n > 20) && !abort.signal.aborted) abort.abort();
      },
    });
    const result = await done;
    for (const [i, s] of result.slots.entries()) {
      const a = s.answers[0];
      expect(a.status).toBe('stopped');
      expect(a.content.length).toBeGreaterThan(20);
      expect(a.content).toBe(events.flatMap((e) => (e.type === 'delta' && e.slot === i ? [e.content] : [])).join(''));
      expect(a.figures).toMatchObject({ source: 'measured' });
      expect(s.median).toBeUndefined();
    }
    await expect.poll(() => ollama.requestsTo('/api/chat').filter((r) => r.closedEarly).length).toBe(2);
  });

  it('repeat 3: three answers per pane and the medians of their figures', async () => {
    const { result, events } = await run(input({ repeat: 3 }));
    for (const s of result.slots) {
      expect(s.answers.map((a) => a.status)).toEqual(['complete', 'complete', 'complete']);
      const ttfts = s.answers.map((a) => a.figures!.ttftMs!).sort((x, y) => x - y);
      expect(s.median).toMatchObject({ evalTokens: 5, ttftMs: ttfts[1], source: 'server' });
    }
    // Parallel: run k of every slot ends before run k+1 of any slot starts.
    const seq = events.flatMap((e) =>
      e.type === 'run-end' ? [`end${e.run}`] : e.type === 'state' && e.state === 'streaming' ? [`go${e.run}`] : [],
    );
    expect(seq).toEqual(['go0', 'go0', 'end0', 'end0', 'go1', 'go1', 'end1', 'end1', 'go2', 'go2', 'end2', 'end2']);
  });

  it('blind: labels hidden, slots shuffled by the seeded source, panes named in the result', async () => {
    const seed = [1, 2, 3, 4, 5, 6, 7, 8].find((s) => shuffledOrder(2, seededRandom(s))[0] === 1)!;
    const { result, events } = await run(input({ blind: true }), { random: seededRandom(seed) });
    expect(events[0]).toMatchObject({ type: 'start', slots: [{ label: 'Model A' }, { label: 'Model B' }] });
    expect(result.slots.map((s) => s.label)).toEqual(['Model A', 'Model B']);
    expect(result.slots.map((s) => s.pane?.model)).toEqual(['beta', 'alpha']);
    expect(result.slots[0].answers[0].content).toBe('beta says hello to you');
    // The plan stays in the set's order.
    expect(result.plan.panes.map((p) => p.bytes)).toEqual([50 * MB, 80 * MB]);
  });

  it('blind: an error does not name its pane before the vote', async () => {
    const { result, events } = await run(
      input({
        blind: true,
        panes: [
          { backend: 'ollama', model: 'alpha' },
          { backend: 'ollama', model: 'hf.co/acme/Secret-Model-GGUF:Q4_K_M' },
        ],
      }),
      { random: seededRandom(1) },
    );
    const failed = result.slots.find((s) => s.pane?.model.includes('Secret'))!;
    const ends = events.flatMap((e) => (e.type === 'run-end' && e.answer.error ? [e.answer.error] : []));
    expect(ends).toHaveLength(1);
    for (const error of [ends[0], failed.answers[0].error!]) {
      expect(error.message).toContain(failed.label);
      expect(error.message).not.toMatch(/secret|acme/i);
      expect(error.details).toBeUndefined();
    }
  });

  it('too little memory: one after another, each model loaded just before its answers', async () => {
    free = 0.5e9;
    const { result, events } = await run(input());
    expect(result.plan).toMatchObject({
      mode: 'sequential',
      reason: 'Together they need 0.1 GB and 0.5 GB is free: they run one after another.',
    });
    const order = events.flatMap((e) => ('state' in e ? [`${e.slot}:${e.state}`] : []));
    expect(order).toEqual([
      '0:waiting',
      '1:waiting',
      '0:loading',
      '0:streaming',
      '0:done',
      '1:loading',
      '1:streaming',
      '1:done',
    ]);
    expect(result.slots.every((s) => s.answers[0].status === 'complete')).toBe(true);
  });

  it('the same model at two context lengths: labelled by it, loaded with it, one after another', async () => {
    const { result, events } = await run(
      input({
        panes: [
          { backend: 'ollama', model: 'alpha' },
          { backend: 'ollama', model: 'alpha', params: { num_ctx: 8192 } },
        ],
      }),
    );
    expect(result.plan.mode).toBe('sequential');
    expect((events[0] as Extract<CompareEvent, { type: 'start' }>).slots.map((s) => s.label)).toEqual([
      'Ollama · alpha (num_ctx default)',
      'Ollama · alpha (num_ctx 8192)',
    ]);
    const loads = ollama
      .requestsTo('/api/chat')
      .map((r) => r.body as { messages: unknown[]; options?: { num_ctx?: number } })
      .filter((b) => b.messages.length === 0);
    expect(loads.map((b) => b.options?.num_ctx)).toEqual([undefined, 8192]);
  });
});

/** The built-in engine (real llama.cpp on a tiny GGUF) beside one of the user's endpoints, through the real services. */
describe('compare runner: the built-in engine and an endpoint', () => {
  const models = tempDir('hubdesk-compare-models-');
  let app: TestApp;
  let llama: OpenAIServerFixture;
  let runner: CompareRunner;
  let tiny = '';
  let endpoint = '';

  beforeAll(async () => {
    writeFileSync(join(models.path, 'tiny.gguf'), tinyGguf());
    llama = await startOpenAIServer('llama.cpp');
    app = await startTestApp({ local: { runtime: { gpu: false, threads: 1 } } });
    const list = await app.client.call('local.folders.add', { path: models.path });
    tiny = list.models.find((m) => m.path.endsWith('tiny.gguf'))!.id;
    endpoint = (await app.client.call('endpoints.save', { name: 'box', preset: 'llama.cpp', baseUrl: llama.url }))
      .endpoint.id;
    const s = app.services;
    const engines = new Engines({
      ollama: s.ollama,
      log: s.log,
      router: () => ({ routerUrl: 'http://127.0.0.1:9', billTo: '' }),
      hfToken: () => undefined,
      routerFetch: fetch,
      endpoints: s.endpoints,
      local: s.local,
    });
    runner = new CompareRunner({ engines, log: s.log, hardware: s.hardware });
  });
  afterAll(async () => {
    await app?.close();
    await llama?.stop();
    models.remove();
  });

  const go = async (panes: CompareSetInput['panes']) => {
    const events: CompareEvent[] = [];
    const i = { ...compareSetSchema.parse({ panes, params: { max_tokens: 6 } }), prompt: 'Hello' };
    const result = await runner.run('r_local', i, {
      signal: new AbortController().signal,
      emit: (e) => events.push(e),
    });
    return { result, events };
  };

  it('loads the built-in model first (its load time apart), and the endpoint answers beside it', async () => {
    const model = llama.models[0].id;
    const { result, events } = await go([
      // A fixed seed: the random tiny model's reply can be partial UTF-8 bytes alone (no text), greedy ones here too.
      { backend: 'local', model: tiny, params: { seed: 3 } },
      { backend: 'endpoint', endpoint, model },
    ]);
    expect(result.plan.mode).toBe('parallel');
    expect(result.plan.reason).toMatch(
      /^One model runs on this machine \(tiny, \d+\.\d GB\): they all answer at once\.$/,
    );
    expect(result.plan.panes).toMatchObject([
      { where: 'local', loaded: false },
      { where: 'remote', loaded: false },
    ]);
    expect(result.plan.panes[0].bytes).toBeGreaterThan(0);
    expect(result.slots.map((s) => s.label)).toEqual(['Built-in · tiny', `box · ${model}`]);
    expect(result.slots[0].loadMs).toBeGreaterThan(0);
    expect(result.slots[1].loadMs).toBeUndefined();
    expect(events.filter((e) => e.type === 'loaded').map((e) => e.slot)).toEqual([0]);
    for (const s of result.slots) {
      expect(s.answers[0].status).toBe('complete');
      expect(s.answers[0].content.length).toBeGreaterThan(0);
      expect(s.median?.evalTokens).toBeGreaterThan(0);
    }
    expect(result.slots[0].answers[0].figures?.loadMs).toBeUndefined();
  });

  it('the same built-in model twice answers on two of its sequences at once; a removed endpoint fails its pane alone', async () => {
    const { result } = await go([
      { backend: 'local', model: tiny, params: { seed: 3 } },
      { backend: 'local', model: tiny, params: { seed: 4 } },
      { backend: 'endpoint', endpoint: 'e_gone', model: 'x' },
    ]);
    // This machine's plan gives the tiny model 4 sequences.
    expect(result.plan.mode).toBe('parallel');
    expect(result.plan.reason).toMatch(/^One model runs on this machine \(tiny, /);
    expect(result.plan.panes[0].loaded).toBe(true);
    expect(result.slots.map((s) => s.label)).toEqual([
      'Built-in · tiny (seed 3)',
      'Built-in · tiny (seed 4)',
      'Endpoint · x',
    ]);
    expect(result.slots.slice(0, 2).map((s) => s.answers[0].status)).toEqual(['complete', 'complete']);
    expect(result.slots[2].answers[0]).toMatchObject({
      status: 'error',
      error: { message: "This pane's endpoint was removed: choose another engine for it." },
    });
  });
});
