import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompareEvent, CompareRun, CompareSetInput } from '@shared/contract/compare';
import type { AppError } from '@shared/errors';
import { SCHEMA_VERSION, userVersion } from '../../electron/main/services/chat/storage/db-open';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';

const Q4 = 'hf.co/x/y-GGUF:Q4_K_M';
const Q8 = 'hf.co/x/y-GGUF:Q8_0';

/** Compare's store and service through the real services, router and web transport, against the Ollama fixture. */
describe('compare: runs kept, blind votes, scoreboard, continue, export, sets', () => {
  let ollama: OllamaFixture;
  let app: TestApp;
  const dir = tempDir();

  const start = (dataDir = dir.path) =>
    startTestApp({
      dataDir,
      env: { OLLAMA_HOST: ollama.url },
      hardware: {
        platform: 'linux',
        run: async (cmd) => {
          if (cmd === 'nvidia-smi') return 'NVIDIA GeForce RTX 3060, 12288, 11000\n';
          throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        },
      },
    });
  /** Closes the app and its chat database (as a quit does), then starts it again on the same data. */
  async function restart() {
    app.services.chat.store.close();
    await app.close();
    app = await start();
  }

  beforeAll(async () => {
    ollama = await startOllamaFixture({
      models: [fixtureModel('alpha', { size: 5e7 }), fixtureModel(Q4, { size: 5e7 }), fixtureModel(Q8, { size: 9e7 })],
    });
    app = await start();
  });
  afterAll(async () => {
    app?.services.chat.store.close();
    await app?.close();
    await ollama?.stop();
    dir.remove();
  });
  beforeEach(() => {
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = (r) => ({ thinking: ['Hmm.'], content: tokens(`${r.model} answers the question`) });
  });

  async function run(set: Partial<CompareSetInput>, prompt = 'Explain quantization in one line') {
    const events: CompareEvent[] = [];
    const panes = set.panes ?? [
      { backend: 'ollama', model: 'alpha' },
      { backend: 'ollama', model: Q4, params: { temperature: 0.2 } },
    ];
    const h = app.client.stream('compare.run', { ...set, panes, prompt }, (evs) => events.push(...evs));
    return { result: await h.result, events };
  }
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: AppError) => e,
    );

  it('saves a run and shows it again, exports it as Markdown, continues a pane as a conversation', async () => {
    const { result } = await run({ system: 'Be brief.', params: { temperature: 0.7, num_ctx: 4096 } });
    expect(result.id).toMatch(/^r_[a-z0-9]+$/);
    expect(result.slots.map((s) => [s.label, s.pane?.model])).toEqual([
      ['Ollama · alpha', 'alpha'],
      [`Ollama · ${Q4}`, Q4],
    ]);
    expect(await app.client.call('compare.get', { id: result.id })).toEqual(result);
    const { runs } = await app.client.call('compare.recent', {});
    expect(runs[0]).toEqual({
      id: result.id,
      createdAt: result.createdAt,
      prompt: 'Explain quantization in one line',
      labels: ['Ollama · alpha', `Ollama · ${Q4}`],
      blind: false,
      voted: false,
    });

    const file = await app.client.call('compare.export', { id: result.id });
    expect(file.filename).toBe(`comparison-${result.createdAt.slice(0, 10)}.md`);
    expect(file.mime).toBe('text/markdown');
    expect(file.text).toContain('## Prompt\n\nExplain quantization in one line');
    expect(file.text).toContain('## System prompt\n\nBe brief.');
    expect(file.text).toContain('| Pane | Load | First token | Tokens/s | Tokens |');
    expect(file.text).toMatch(/\| Ollama · alpha \| .+ \| \d+ ms \| [\d.]+ tok\/s \| \d+ \|/);
    expect(file.text).toContain(`## Ollama · ${Q4}\n\n- Own parameters: temperature=0.2`);
    expect(file.text).toContain(`${Q4} answers the question`);
    expect(file.text).toContain('- Parameters: temperature=0.7, num_ctx=4096');

    const meta = await app.client.call('compare.continue', { id: result.id, slot: 1 });
    expect(meta).toMatchObject({
      title: 'Explain quantization in one line',
      backend: 'ollama',
      model: Q4,
      system: 'Be brief.',
      params: { temperature: 0.2, num_ctx: 4096 },
      messageCount: 2,
    });
    const view = await app.client.call('chat.get', { id: meta.id });
    const answer = result.slots[1].answers[0];
    expect(view.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Explain quantization in one line', 'complete'],
      ['assistant', answer.content, 'complete'],
    ]);
    expect(view.messages[1]).toMatchObject({ thinking: 'Hmm.', model: Q4, figures: answer.figures });
    expect(view.messages[1].figures?.tokensPerSecond).toBeGreaterThan(0);

    await app.client.call('compare.delete', { id: result.id });
    const gone = await refusal(app.client.call('compare.get', { id: result.id }));
    expect(gone).toMatchObject({ code: 'not_found', message: 'This comparison was deleted.' });
  });

  it('blind: names hidden until the one vote, which counts on the scoreboard kept across a restart', async () => {
    const panes = [
      { backend: 'ollama' as const, model: Q4 },
      { backend: 'ollama' as const, model: Q8 },
    ];
    ollama.chatScript = () => ({ content: tokens('An answer that does not say who wrote it') });
    const { result, events } = await run({ panes, blind: true });
    expect(result.slots.map((s) => [s.label, s.pane])).toEqual([
      ['Model A', undefined],
      ['Model B', undefined],
    ]);
    expect(JSON.stringify(events)).not.toMatch(/GGUF/);
    expect(await app.client.call('compare.get', { id: result.id })).toEqual(result);
    const exported = await app.client.call('compare.export', { id: result.id });
    expect(exported.text).toContain('## Model A');
    expect(exported.text).not.toContain('GGUF:Q');
    const early = await refusal(app.client.call('compare.continue', { id: result.id, slot: 0 }));
    expect(early?.message).toBe('Vote first: the names are hidden until then.');
    const [summary] = (await app.client.call('compare.recent', { limit: 1 })).runs;
    expect(summary).toMatchObject({ labels: ['Model A', 'Model B'], blind: true, voted: false });

    const revealed = await app.client.call('compare.vote', { id: result.id, winner: 1 });
    const winner = revealed.slots[1].pane!.model;
    const loser = revealed.slots[0].pane!.model;
    expect([winner, loser].sort()).toEqual([Q4, Q8]);
    expect(revealed.slots.map((s) => s.label)).toEqual([`Ollama · ${loser}`, `Ollama · ${winner}`]);
    expect(revealed.vote).toMatchObject({ winner: 1 });
    const again = await refusal(app.client.call('compare.vote', { id: result.id, winner: 0 }));
    expect(again).toMatchObject({
      code: 'conflict',
      message: 'This comparison already has your vote: a vote counts once.',
    });

    // A second blind comparison ends in a tie.
    const tie = await run({ panes, blind: true });
    await app.client.call('compare.vote', { id: tie.result.id, winner: null });
    const board = await app.client.call('compare.scoreboard', {});
    const quant = (m: string) => (m === Q4 ? 'Q4_K_M' : 'Q8_0');
    const expected = {
      machine: expect.stringMatching(/ · \d+\.\d GB RAM · NVIDIA GeForce RTX 3060 12\.9 GB$/),
      rows: [
        {
          backend: 'ollama',
          label: `Ollama · ${winner}`,
          model: winner,
          quant: quant(winner),
          wins: 1,
          losses: 0,
          ties: 1,
        },
        {
          backend: 'ollama',
          label: `Ollama · ${loser}`,
          model: loser,
          quant: quant(loser),
          wins: 0,
          losses: 1,
          ties: 1,
        },
      ],
    };
    expect(board).toEqual(expected);

    await restart();
    expect(await app.client.call('compare.scoreboard', {})).toEqual(expected);
    const kept: CompareRun = await app.client.call('compare.get', { id: result.id });
    expect(kept).toEqual(revealed);
    const after = (await app.client.call('compare.recent', {})).runs.find((r) => r.id === result.id);
    expect(after).toMatchObject({ labels: revealed.slots.map((s) => s.label), voted: true });
    // Revealed now: its panes can be continued.
    const meta = await app.client.call('compare.continue', { id: result.id, slot: 1 });
    expect(meta.model).toBe(winner);
  });

  it("a failed pane is kept with its error and cannot be continued; a stopped answer's text can", async () => {
    const { result } = await run({
      panes: [
        { backend: 'ollama', model: 'alpha' },
        { backend: 'ollama', model: 'ghost' },
      ],
    });
    const saved = await app.client.call('compare.get', { id: result.id });
    expect(saved.slots[1].answers[0]).toMatchObject({ status: 'error', content: '', error: { code: 'not_found' } });
    const failed = await refusal(app.client.call('compare.continue', { id: result.id, slot: 1 }));
    expect(failed?.message).toMatch(/failed before it wrote anything/);
    const missing = await refusal(app.client.call('compare.continue', { id: result.id, slot: 0, run: 3 }));
    expect(missing?.message).toMatch(/there is no answer 4/);

    // Stop: every pane ends stopped with its text, and the run is saved once they have.
    ollama.chunkIntervalMs = 30;
    const h = app.client.stream(
      'compare.run',
      { panes: result.slots.map(() => ({ backend: 'ollama', model: 'alpha' })), prompt: 'Stop me' },
      (evs) => {
        if (evs.some((e) => e.type === 'delta' && e.slot === 0 && e.content)) h.cancel();
      },
    );
    expect(await refusal(h.result)).toMatchObject({ code: 'aborted' });
    let id: string | undefined;
    while (!id) {
      await new Promise((r) => setTimeout(r, 20));
      id = (await app.client.call('compare.recent', {})).runs.find((r) => r.prompt === 'Stop me')?.id;
    }
    const stopped = (await app.client.call('compare.get', { id })).slots[0].answers[0];
    expect(stopped.status).toBe('stopped');
    expect(stopped.content).not.toBe('');
    const meta = await app.client.call('compare.continue', { id, slot: 0 });
    const view = await app.client.call('chat.get', { id: meta.id });
    expect(view.messages[1]).toMatchObject({ status: 'stopped', content: stopped.content });
  });

  it('saved sets: new, names unique, over an id, deleted; kept across a restart', async () => {
    const set = {
      panes: [
        { backend: 'ollama' as const, model: 'alpha' },
        { backend: 'ollama' as const, model: Q8 },
      ],
    };
    const saved = await app.client.call('compare.sets.save', { name: 'My set', set });
    expect(saved).toMatchObject({ id: expect.stringMatching(/^k_/), name: 'My set', set: { repeat: 1, blind: false } });
    const twice = await refusal(app.client.call('compare.sets.save', { name: 'my set', set }));
    expect(twice).toMatchObject({
      code: 'conflict',
      message: 'A set named “my set” is already saved: choose another name.',
    });
    const renamed = await app.client.call('compare.sets.save', {
      id: saved.id,
      name: 'Quants',
      set: { ...set, repeat: 3 },
    });
    expect(renamed).toMatchObject({ id: saved.id, name: 'Quants', set: { repeat: 3 } });
    await restart();
    expect((await app.client.call('compare.sets', {})).sets).toEqual([renamed]);
    await app.client.call('compare.sets.delete', { id: saved.id });
    expect((await app.client.call('compare.sets', {})).sets).toEqual([]);
    const gone = await refusal(app.client.call('compare.sets.delete', { id: saved.id }));
    expect(gone).toMatchObject({ code: 'not_found', message: 'This saved set was deleted.' });
  });

  it('migrates a database of an earlier schema: its conversations stay, comparisons are kept', async () => {
    const old = tempDir();
    try {
      mkdirSync(old.path, { recursive: true });
      copyFileSync(join(import.meta.dirname, '../fixtures/chat-db/schema-1.sqlite'), join(old.path, 'chats.sqlite'));
      const other = await start(old.path);
      try {
        expect((await other.client.call('compare.recent', {})).runs).toEqual([]);
        const h = other.client.stream(
          'compare.run',
          {
            panes: [
              { backend: 'ollama', model: 'alpha' },
              { backend: 'ollama', model: Q4 },
            ],
            prompt: 'After the upgrade',
          },
          () => {},
        );
        const { id } = await h.result;
        expect((await other.client.call('compare.recent', {})).runs.map((r) => r.id)).toEqual([id]);
        const titles = (await other.client.call('chat.list', {})).conversations.map((c) => c.title);
        expect(titles).toEqual(['Quantization basics', 'Router chat with a tool']);
      } finally {
        other.services.chat.store.close();
        await other.close();
      }
      const raw = new Database(join(old.path, 'chats.sqlite'));
      expect(userVersion(raw)).toBe(SCHEMA_VERSION);
      raw.close();
    } finally {
      old.remove();
    }
  });
});
