import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../electron/main/services/chat/journal';
import { figure, timeRuns, type BenchContext, type Figure } from '../lib/measure';
import { syntheticMessages } from '../../tests/fixtures/conversation';

/**
 * Persistence: messages appended per second with the chat's durability (one fsync'd whole-line write per message),
 * and opening a 10,000-message journal against reading and JSON-parsing the same file.
 */
export async function persistence(ctx: BenchContext): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-journal-'));
  try {
    const n = ctx.quick ? 200 : 1000;
    const rates: number[] = [];
    for (let r = 0; r < ctx.runs(3, 2); r++) {
      const j = Journal.open(join(dir, `append-${r}.jsonl`));
      const msgs = syntheticMessages(n);
      const t = performance.now();
      for (const msg of msgs) j.append([{ t: 'put', msg }]);
      rates.push(n / ((performance.now() - t) / 1000));
      j.close();
    }

    const big = join(dir, 'big.jsonl');
    const writer = Journal.open(big);
    const msgs = syntheticMessages(10_000);
    for (let i = 0; i < msgs.length; i += 500) writer.append(msgs.slice(i, i + 500).map((msg) => ({ t: 'put', msg })));
    writer.close();
    const runs = ctx.runs(7, 3);
    const open = await timeRuns(runs, () => {
      const j = Journal.open(big);
      if (j.messages().length !== 10_000) throw new Error('journal lost messages');
      j.close();
    });
    const parse = await timeRuns(runs, () => {
      const lines = readFileSync(big, 'utf8').split('\n');
      const out: unknown[] = [];
      for (const l of lines) if (l) out.push(JSON.parse(l));
      if (out.length !== 10_000) throw new Error('bad file');
    });
    return [
      figure('persistence: messages appended (fsync each)', 'msg/s', rates, { note: `${n} messages a run` }),
      figure('persistence: open a 10,000-message conversation', 'ms', open, {
        baseline: parse,
        target: 'ratio ≤ 2 (baseline: read + JSON.parse the file)',
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
