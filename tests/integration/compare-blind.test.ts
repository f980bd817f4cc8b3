import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatFigures } from '@shared/contract/chat-message';
import type { CompareEvent, CompareRun } from '@shared/contract/compare';
import { startOpenAIServer, type OpenAIServerFixture } from '../fixtures/openai-server';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/**
 * Issue #38 item 7 (F11): a blind comparison of a model on this machine and an endpoint gives nothing away before
 * the vote: every slot gets the same kinds of events, and neither the events nor compare.get nor compare.export
 * carry a load time, a telling figure or the plan's reason; the vote shows them all.
 */
describe('blind Compare is blind until the vote (issue #38 item 7)', () => {
  const models = tempDir('hubdesk-blind-models-');
  let app: TestApp;
  let llama: OpenAIServerFixture;
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
  });
  afterAll(async () => {
    await app?.close();
    await llama?.stop();
    models.remove();
  });

  /** What tells figures apart: which ones an engine reports at all, and where they came from. */
  const TELLING: (keyof ChatFigures)[] = ['source', 'loadMs', 'promptTokens', 'promptTokensPerSecond', 'doneReason'];
  const tells = (f: ChatFigures | undefined) => TELLING.filter((k) => f?.[k] !== undefined);

  function expectNothingTelling(run: CompareRun, text = JSON.stringify(run)) {
    expect(run.plan.reason).not.toMatch(/tiny|machine|GB/);
    for (const s of run.slots) {
      expect(s.pane).toBeUndefined();
      expect(s.loadMs).toBeUndefined();
      expect(tells(s.median)).toEqual([]);
      for (const a of s.answers) expect(tells(a.figures)).toEqual([]);
    }
    expect(text).not.toMatch(/"source"|"loadMs"|tiny|box/);
  }

  it('events, compare.get and compare.export carry nothing that tells the panes apart; the vote shows it all', async () => {
    const plan = await app.client.call('compare.plan', {
      panes: [
        { backend: 'local', model: tiny },
        { backend: 'endpoint', endpoint, model: llama.models[0].id },
      ],
    });
    expect(plan.reason).toMatch(/tiny/);
    const events: CompareEvent[] = [];
    const h = app.client.stream(
      'compare.run',
      {
        panes: [
          { backend: 'local', model: tiny, params: { seed: 3 } },
          { backend: 'endpoint', endpoint, model: llama.models[0].id },
        ],
        params: { max_tokens: 6 },
        blind: true,
        prompt: 'Hello',
      },
      (evs) => events.push(...evs),
    );
    const result = await h.result;

    // Events: the same kinds for every slot (deltas aside), no load events, nothing telling in the plan or answers.
    const kinds = (slot: number) =>
      events.flatMap((e) =>
        'slot' in e && e.slot === slot && e.type !== 'delta' ? [e.type === 'state' ? `state:${e.state}` : e.type] : [],
      );
    expect(kinds(0)).toEqual(kinds(1));
    expect(kinds(0)).toEqual(['state:waiting', 'state:streaming', 'run-end', 'state:done']);
    const start = events.find((e) => e.type === 'start')!;
    expect(start.type === 'start' && start.plan.reason).not.toMatch(/tiny|machine/);
    for (const e of events) if (e.type === 'run-end') expect(tells(e.answer.figures)).toEqual([]);

    expectNothingTelling(result);
    expectNothingTelling(await app.client.call('compare.get', { id: result.id }));
    const file = await app.client.call('compare.export', { id: result.id });
    expect(file.text).not.toMatch(/tiny|box|on this machine/);
    expect(file.text).toContain('| Model A | – |');
    expect(file.text).toContain('| Model B | – |');

    // The vote shows everything: the panes, the built-in model's load time, the figures, the plan's reason.
    const voted = await app.client.call('compare.vote', { id: result.id, winner: 0 });
    const local = voted.slots.find((s) => s.pane?.backend === 'local')!;
    expect(local.loadMs).toBeGreaterThan(0);
    expect(voted.plan.reason).toBe(plan.reason);
    expect(voted.slots.some((s) => s.answers[0].figures?.source !== undefined)).toBe(true);
    expect(await app.client.call('compare.get', { id: result.id })).toEqual(voted);
    expect((await app.client.call('compare.export', { id: result.id })).text).toContain('tiny');
  });
});
