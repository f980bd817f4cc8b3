import { compareSetSchema, type CompareRun } from '@shared/contract/compare';
import { CompareRunner, type CompareInput } from '../../electron/main/services/compare/runner';
import { Engines } from '../../electron/main/services/engines/registry';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { fixtureModel, startOllamaFixture } from '../../tests/fixtures/ollama';
import { figure, type BenchContext, type Figure } from '../lib/measure';

/** Tokens per answer and the gap between them: about a second an answer, at the same rate for both models. */
const TOKENS = 100;
const GAP_MS = 10;

/**
 * Compare's parallel case: two panes on two Ollama models that fit in memory together, each streaming at the same
 * rate, timed from the request until both answers are complete, against one of them answering alone (the same
 * runner, one pane), in the same run. Both models are loaded first, so only answering is timed.
 */
export async function compare(ctx: BenchContext): Promise<Figure[]> {
  const fixture = await startOllamaFixture({
    models: [fixtureModel('alpha', { size: 50e6 }), fixtureModel('beta', { size: 50e6 })],
    chunkIntervalMs: GAP_MS,
    chatScript: () => ({ content: Array.from({ length: TOKENS }, (_, i) => ` w${i}`) }),
  });
  try {
    const log = createLogger();
    const ollama = new OllamaService({ host: () => fixture.url, keyedFetch: fetch, log });
    const engines = new Engines({
      ollama,
      log,
      router: () => ({ routerUrl: 'http://127.0.0.1:9', billTo: '' }),
      hfToken: () => undefined,
      routerFetch: fetch,
    });
    const runner = new CompareRunner({ engines, log });
    // The runner takes any number of panes: one alone is the same path with nothing beside it.
    const both: CompareInput = {
      ...compareSetSchema.parse({ panes: ['alpha', 'beta'].map((model) => ({ backend: 'ollama', model })) }),
      prompt: 'go',
    };
    const alone1: CompareInput = { ...both, panes: both.panes.slice(0, 1) };
    const time = async (input: CompareInput): Promise<number> => {
      const t = performance.now();
      const run: CompareRun = await runner.run('r_bench', input, { signal: new AbortController().signal, emit() {} });
      const took = performance.now() - t;
      if (run.slots.some((s) => s.answers[0]?.content.split(' ').length !== TOKENS + 1))
        throw new Error('compare bench: an answer came back incomplete');
      return took;
    };
    // Warm-up: both models loaded (and the plan checked), the client's connections open.
    await time(both);
    const plan = await runner.plan(both);
    if (plan.mode !== 'parallel') throw new Error(`compare bench: expected parallel, got: ${plan.reason}`);
    const alone: number[] = [];
    const together: number[] = [];
    for (let i = 0; i < ctx.runs(7, 3); i++) {
      alone.push(await time(alone1));
      together.push(await time(both));
    }
    ctx.log(
      `alone ${alone.map((x) => x.toFixed(0)).join(', ')} ms; together ${together.map((x) => x.toFixed(0)).join(', ')} ms`,
    );
    return [
      figure('compare: two panes in parallel, both answers (vs one alone)', 'ms', together, {
        baseline: alone,
        target: '≤ 1.1×',
      }),
    ];
  } finally {
    await fixture.stop();
  }
}
