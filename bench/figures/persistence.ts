import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../electron/main/services/chat/journal';
import { ChatStore } from '../../electron/main/services/chat/store';
import { createLogger } from '../../electron/main/services/log';
import { figure, timeRuns, type BenchContext, type Figure } from '../lib/measure';
import { syntheticExport, syntheticMessages } from '../../tests/fixtures/conversation';

/**
 * Persistence in the SQLite store: messages appended per second, each committed durably (synchronous=FULL)
 * before the next, against the previous JSONL journal (one fsync'd write per message) in the same run; a
 * streaming checkpoint; and opening a 10,000-message conversation against a 100-message one.
 */
export async function persistence(ctx: BenchContext): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-store-'));
  const log = createLogger();
  try {
    const n = ctx.quick ? 200 : 1000;
    const rates: number[] = [];
    const journalRates: number[] = [];
    const checkpoints: number[] = [];
    for (let r = 0; r < ctx.runs(3, 2); r++) {
      const store = new ChatStore({ file: join(dir, `append-${r}.sqlite`) }, log);
      const conv = store.get(store.create({ model: 'm' }).id);
      const msgs = syntheticMessages(n);
      let t = performance.now();
      for (const msg of msgs) conv.put(msg);
      rates.push(n / ((performance.now() - t) / 1000));
      const last = msgs.at(-1)!.id;
      t = performance.now();
      for (let i = 0; i < n; i++) conv.append(last, 'token ', '');
      checkpoints.push((performance.now() - t) / n);
      store.close();

      const j = Journal.open(join(dir, `append-${r}.jsonl`));
      t = performance.now();
      for (const msg of msgs) j.append([{ t: 'put', msg }]);
      journalRates.push(n / ((performance.now() - t) / 1000));
      j.close();
    }

    const store = new ChatStore({ file: join(dir, 'open.sqlite') }, log);
    const big = store.import(JSON.stringify(syntheticExport(10_000, 'big'))).id;
    const small = store.import(JSON.stringify(syntheticExport(100, 'small'))).id;
    store.close();
    const runs = ctx.runs(7, 3);
    // Each open is a cold one: a fresh store, as after a start.
    const openOf = (id: string, count: number) => () => {
      const s = new ChatStore({ file: join(dir, 'open.sqlite') }, log);
      if (s.get(id).messages.length !== count) throw new Error('store lost messages');
      s.close();
    };
    const openBig = await timeRuns(runs, openOf(big, 10_000));
    const openSmall = await timeRuns(runs, openOf(small, 100));
    return [
      figure('persistence: messages appended (committed each)', 'msg/s', rates, {
        baseline: journalRates,
        target: `ratio ≥ 1 (baseline: the JSONL journal, fsync each); ${n} messages a run`,
      }),
      figure('persistence: one streaming checkpoint (committed)', 'ms', checkpoints, {
        note: `${n} checkpoints a run, at most 2 a second while streaming`,
      }),
      figure('persistence: open a 10,000-message conversation', 'ms', openBig, {
        baseline: openSmall,
        target: 'baseline: 100 messages (both opened cold, store included)',
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
