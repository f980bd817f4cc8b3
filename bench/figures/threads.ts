import { availableParallelism } from 'node:os';
import type { Llama } from 'node-llama-cpp';
import type { EngineStatus } from '@shared/contract/local-engine';
import type { HostGenerated } from '../../electron/main/services/local/host/protocol';
import { startLlama } from '../../electron/main/services/local/runtime/llama';
import { launchChromium } from '../lib/browser';
import { startLocalApp, PROMPT, type LocalApp } from '../lib/local-app';
import { figure, median, type BenchContext, type Figure } from '../lib/measure';
import { startStreamingWindow } from '../lib/streaming-window';

const CONTEXT = 1024;
/** At most this many tokens a run; a slow setting stops at the run's time instead. */
const TOKENS = 800;

const history = [
  { type: 'user', text: PROMPT },
  { type: 'model', response: [] },
];

/**
 * One run's decode tokens/s in the engine host with the model as loaded now, stopped after `ms` (a setting that
 * decodes a few tokens/s would take minutes for 800). One level below the lease, which answers a Stop at once: the
 * host's own answer to the abort carries the tokens it generated.
 */
async function inHost(app: LocalApp, id: string, ms: number): Promise<number> {
  const { runtime } = app.services.local;
  const model = await app.services.local.model(id);
  const lease = await runtime.acquire(model);
  try {
    const t = performance.now();
    const tokens = await runtime.host
      .request<{ op: 'generate'; generated: HostGenerated }>(
        {
          op: 'generate',
          generate: {
            model: { id: model.id, name: model.name, path: model.path, embedding: false },
            // Loaded with one sequence: the one the lease holds.
            slot: 0,
            history,
            options: { maxTokens: TOKENS, temperature: 0 },
          },
        },
        { signal: AbortSignal.timeout(ms) },
      )
      .then(
        (r) => r.generated.outputTokens,
        // Stopped before its first token (the prompt took the whole run): none.
        (e: unknown) => {
          if ((e as Error)?.name !== 'AbortError') throw e;
          return 0;
        },
      );
    return tokens / ((performance.now() - t) / 1000);
  } finally {
    lease.release();
  }
}

/**
 * The same with node-llama-cpp called in this process (`threads` unset: its own count): `runs` runs after one that
 * is not counted.
 */
async function inProcess(
  llama: Llama,
  file: string,
  threads: number | undefined,
  runs: number,
  ms: number,
): Promise<{ tps: number[]; threads: number }> {
  const { LlamaChat } = await import('node-llama-cpp');
  const model = await llama.loadModel({ modelPath: file });
  const context = await model.createContext({ contextSize: CONTEXT, ...(threads ? { threads } : {}) });
  const chat = new LlamaChat({ contextSequence: context.getSequence() });
  const run = async () => {
    const before = chat.sequence.tokenMeter.getState().usedOutputTokens;
    const t = performance.now();
    await chat
      .generateResponse(history as Parameters<typeof chat.generateResponse>[0], {
        maxTokens: TOKENS,
        temperature: 0,
        signal: AbortSignal.timeout(ms),
        stopOnAbortSignal: true,
      })
      // Stopped before its first token (the prompt took the whole run): none, not an error.
      .catch((e: unknown) => {
        if ((e as Error)?.name !== 'TimeoutError') throw e;
      });
    const tokens = chat.sequence.tokenMeter.getState().usedOutputTokens - before;
    return tokens / ((performance.now() - t) / 1000);
  };
  try {
    await run();
    const tps: number[] = [];
    for (let r = 0; r < runs; r++) tps.push(await run());
    return { tps, threads: context.idealThreads };
  } finally {
    chat.dispose({ disposeSequence: true });
    await context.dispose();
    await model.dispose();
  }
}

/**
 * The tiny GGUF's decode speed at 1 and 2 threads, llama.cpp's own count and the app's default rule (host/threads.ts:
 * every math core but one), beside a window streaming a reply, and without it: the figures behind the rule.
 */
export async function threads(ctx: BenchContext): Promise<Figure[]> {
  const runs = ctx.runs(5, 2);
  const ms = ctx.quick ? 750 : 1_000;
  // No thread count given: the app's own rule unless `local.threads` sets one.
  const app = await startLocalApp();
  const { router, services } = app;
  const id = app.models[0];
  const browser = await launchChromium();
  /**
   * Samples of each setting (0: the default rule), a visit to each in turn, rotated, so that none always runs on
   * a quieter machine or right after 2 threads. Each is loaded again for its sample, and its first run after the load
   * is not counted (it is slower, the more so after 2 threads).
   */
  const hostRuns = async () => {
    const settings = [1, 2, 0];
    const out: Record<number, number[]> = { 0: [], 1: [], 2: [] };
    for (let r = 0; r < runs; r++)
      for (let i = 0; i < settings.length; i++) {
        const n = settings[(r + i) % settings.length];
        await router.call('local.threads', { threads: n });
        await router.call('local.unload', {});
        const s = (await router.call('local.load', { id, contextSize: CONTEXT, sequences: 1 })) as EngineStatus;
        if (n === 0) rule = s.threads.value;
        await inHost(app, id, ms);
        // Three samples of 1 thread and of the rule, which are compared; one of 2 threads, which take the whole run here.
        for (let k = n === 2 ? 1 : 3; k > 0; k--) out[n].push(await inHost(app, id, ms));
      }
    return out;
  };
  let rule = 0;
  try {
    const alone = await hostRuns();
    const window = await startStreamingWindow(browser);
    let fps = NaN;
    let busy: Record<number, number[]>;
    const direct: Record<'one' | 'own', number[]> = { one: [], own: [] };
    let own = 0;
    try {
      busy = await hostRuns();
      await router.call('local.unload', {});
      const llama = await startLlama({ gpu: false, log: services.log });
      direct.one = (await inProcess(llama, app.file, 1, runs, ms)).tps;
      const o = await inProcess(llama, app.file, undefined, runs, ms);
      own = o.threads;
      direct.own = o.tps;
    } finally {
      fps = (await window.stop()).fps;
    }

    const beside = `beside a Chromium page streaming Markdown (${fps.toFixed(0)} frames/s), ${availableParallelism()} cores`;
    const at = (xs: number[]) => `${median(xs).toFixed(0)} tok/s`;
    const best = median(busy[2]) > median(busy[1]) ? 2 : 1;
    return [
      figure('threads: tokens/s at 1 thread, streaming window', 'tok/s', busy[1], {
        note: `in the engine host ${beside}; without the window ${at(alone[1])}`,
      }),
      figure('threads: tokens/s at 2 threads, streaming window', 'tok/s', busy[2], {
        baseline: busy[1],
        note: `against 1 thread, in the engine host ${beside}; without the window ${at(alone[2])} (1 thread ${at(alone[1])})`,
      }),
      figure(`threads: tokens/s at llama.cpp's own count (${own}), streaming window`, 'tok/s', direct.own, {
        baseline: direct.one,
        note: `against 1 thread, node-llama-cpp in this process with no threads given (as the app ran before the rule), ${beside}`,
      }),
      figure(`threads: tokens/s with the default rule (${rule} here), streaming window`, 'tok/s', busy[0], {
        baseline: busy[best],
        target: `ratio ≥ 0.95 against the faster fixed count (1 thread ${at(busy[1])}, 2 threads ${at(busy[2])}); every math core but one (host/threads.ts), in the engine host; without the window ${at(alone[0])}`,
      }),
    ];
  } finally {
    await browser.close();
    await app.close();
  }
}
