import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { EngineStatus } from '@shared/contract/local-engine';
import { Router } from '../../electron/main/router';
import { createHandlers } from '../../electron/main/handlers';
import { startLlama } from '../../electron/main/services/local/runtime/llama';
import { replyDirect, replyVia, startLocalApp, PROMPT, type LocalApp, type Reply } from '../lib/local-app';
import { killMidReply, type Crash } from '../lib/host-crash';
import { figure, median, type BenchContext, type Figure } from '../lib/measure';

/** Long enough that the router's per-frame batching (16 ms) is small against the generation time. */
const TOKENS = 800;
/** One thread: on these 2-core machines two decode the tiny model a hundred times slower or worse (`--only threads`). */
const THREADS = 1;
const CONTEXT = 1024;
/** Replies at once on one model, each on a sequence of its own. */
const PARALLEL = 4;

/** The process's resident memory after a full garbage collection (gc exposed at run time: no node flag needed). */
function rss(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().rss;
}

const mb = (n: number) => n / 2 ** 20;

/** The engine host's side alone, below the chat service: a lease's generate → its first streamed piece. */
async function viaRuntime(app: LocalApp, id: string): Promise<Reply> {
  const { runtime } = app.services.local;
  const lease = await runtime.acquire(await app.services.local.model(id));
  try {
    const t = performance.now();
    let first = 0;
    let last = 0;
    const res = await lease.generate(
      {
        history: [
          { type: 'user', text: PROMPT },
          { type: 'model', response: [] },
        ],
        options: { maxTokens: TOKENS, temperature: 0 },
      },
      () => {
        last = performance.now();
        first ||= last;
      },
      new AbortController().signal,
    );
    return {
      startedAt: t,
      firstMs: first - t,
      lastMs: last - t,
      tokens: res.outputTokens,
      tokensPerSecond: res.outputTokens / ((last - t) / 1000),
    };
  } finally {
    lease.release();
  }
}

/** Replies run at once: their tokens over first request → last text, and whether any waited for another. */
interface Together {
  tokensPerSecond: number;
  /** A reply's first token came after another's last: it did not run beside it. */
  queued: boolean;
}

function together(replies: Reply[]): Together {
  const start = Math.min(...replies.map((r) => r.startedAt));
  const end = Math.max(...replies.map((r) => r.startedAt + r.lastMs));
  const firstIn = Math.max(...replies.map((r) => r.startedAt + r.firstMs));
  const firstOut = Math.min(...replies.map((r) => r.startedAt + r.lastMs));
  return {
    tokensPerSecond: replies.reduce((s, r) => s + r.tokens, 0) / ((end - start) / 1000),
    queued: firstIn > firstOut,
  };
}

/** One reply alone, then `n` at once: each as `reply(i)` makes it (its own conversation, lease or sequence). */
async function aloneAndTogether(
  n: number,
  reply: (i: number) => Promise<Reply>,
): Promise<{ alone: number; together: Together }> {
  const alone = (await reply(0)).tokensPerSecond;
  return { alone, together: together(await Promise.all(Array.from({ length: n }, (_, i) => reply(i)))) };
}

/**
 * A reply sent while `n` others stream on the same model, each sequence having answered before: request → its
 * first token. Joining them, it should start at once, not when they end.
 */
async function joining(router: Router, id: string, n: number): Promise<number | undefined> {
  let streaming!: () => void;
  const allStreaming = new Promise<void>((ok) => (streaming = ok));
  let count = 0;
  const running = Array.from({ length: n }, () =>
    replyVia(router, id, TOKENS, { onFirst: () => ++count === n && streaming() }),
  );
  await allStreaming;
  const late = await replyVia(router, id, 32);
  const others = await Promise.all(running);
  // One of the others may itself have waited (the same lock): then they did not all stream together, and the run
  // says nothing of joining.
  return others.some((o) => o.startedAt + o.lastMs < late.startedAt) ? undefined : late.firstMs;
}

/**
 * The built-in engine through its host process against node-llama-cpp called in this process (the same tiny GGUF,
 * the same thread): speed, time to first token, replies at once, a killed engine, and what main's memory holds.
 */
export async function localEngine(ctx: BenchContext): Promise<Figure[]> {
  const crashRuns = ctx.runs(5, 2);
  // Each crash on a copy of its own: three within a minute on one model would (rightly) stop the restarts.
  const app = await startLocalApp({ threads: THREADS, copies: 1 + crashRuns });
  const { router, services } = app;
  const model = app.models[0];
  const eachEvent = new Router(createHandlers(services), services.log, 0);
  const { LlamaChat } = await import('node-llama-cpp');
  const load = (sequences: number) => router.call('local.load', { id: model, contextSize: CONTEXT, sequences });
  try {
    // A cold start, as after a launch: the first reply starts the host and loads the model (its plan's settings).
    const cold = await replyVia(router, model, 32);
    ctx.log(`cold start: first token after ${cold.firstMs.toFixed(0)} ms`);

    // Memory: what loading a model and chatting with it adds to main, through the host, then in this process.
    await router.call('local.unload', {});
    const hostIdle = ((await router.call('local.status', {})) as EngineStatus).host?.rssBytes ?? NaN;
    const mainBefore = rss();
    await load(1);
    for (let i = 0; i < 3; i++) await replyVia(router, model, TOKENS);
    const mainLoaded = rss();
    const loaded = (await router.call('local.status', {})) as EngineStatus;
    const hostLoaded = loaded.host?.rssBytes ?? NaN;
    const modelBytes = loaded.loaded[0]?.memoryBytes ?? NaN;

    const directBefore = rss();
    // The runtime's own module, so the baseline is the llama.cpp binding the host runs.
    const llama = await startLlama({ gpu: false, log: services.log });
    const direct = await llama.loadModel({ modelPath: app.file });
    /** A context of `sequences` with one LlamaChat each, disposed after `use`. */
    const withChats = async <T>(
      sequences: number,
      use: (chats: InstanceType<typeof LlamaChat>[]) => Promise<T>,
    ): Promise<T> => {
      const context = await direct.createContext({ contextSize: CONTEXT, threads: THREADS, sequences });
      const chats = Array.from({ length: sequences }, () => new LlamaChat({ contextSequence: context.getSequence() }));
      try {
        return await use(chats);
      } finally {
        for (const c of chats) c.dispose({ disposeSequence: true });
        await context.dispose();
      }
    };
    const hub: Reply[] = [];
    const unbatched: Reply[] = [];
    const runtime: Reply[] = [];
    const bare: Reply[] = [];
    const directLoaded = await withChats(1, async ([chat]) => {
      for (let i = 0; i < 3; i++) await replyDirect(chat, TOKENS);
      const after = rss();
      await viaRuntime(app, model);
      for (let r = 0; r < ctx.runs(9, 3); r++) {
        // Rotate the order so no side always runs on a warmer machine.
        const sides = [
          async () => hub.push(await replyVia(router, model, TOKENS)),
          async () => unbatched.push(await replyVia(eachEvent, model, TOKENS)),
          async () => runtime.push(await viaRuntime(app, model)),
          async () => bare.push(await replyDirect(chat, TOKENS)),
        ];
        for (let i = 0; i < sides.length; i++) await sides[(r + i) % sides.length]();
      }
      return after;
    });

    // Replies at once: one reply alone, then PARALLEL together, each on a sequence of its own of one model.
    await load(PARALLEL);
    type Runs = Awaited<ReturnType<typeof aloneAndTogether>>[];
    const parallel: Record<'app' | 'host' | 'direct', Runs> = { app: [], host: [], direct: [] };
    const joined: number[] = [];
    const joinedAlone: number[] = [];
    await withChats(PARALLEL, async (chats) => {
      const levels = {
        app: () => replyVia(router, model, TOKENS),
        host: () => viaRuntime(app, model),
        direct: (i: number) => replyDirect(chats[i], TOKENS),
      };
      // Each sequence's first reply opens its LlamaChat (a few hundred ms, once): not what is measured here.
      for (const reply of Object.values(levels))
        await Promise.all(Array.from({ length: PARALLEL }, (_, i) => reply(i)));
      for (let r = 0; r < ctx.runs(5, 2); r++) {
        const j = await joining(router, model, PARALLEL - 1);
        if (j === undefined) ctx.log(`joining, run ${r}: the others did not all stream together; not counted`);
        else joined.push(j);
        joinedAlone.push((await replyVia(router, model, 32)).firstMs);
        for (const [k, reply] of Object.entries(levels)) {
          const run = await aloneAndTogether(PARALLEL, reply);
          if (run.together.queued) ctx.log(`${k}, run ${r}: a reply's first token came after another's last`);
          parallel[k as keyof typeof levels].push(run);
        }
      }
    });
    await direct.dispose();

    const crashes: Crash[] = [];
    for (let r = 0; r < crashRuns; r++)
      crashes.push(await killMidReply(app, { tokens: TOKENS, contextSize: CONTEXT }, app.models[1 + r]));
    ctx.log(`the killed reply said: ${crashes[0].error}`);

    const tps = (xs: Reply[]) => xs.map((x) => x.tokensPerSecond);
    const first = (xs: Reply[]) => xs.map((x) => x.firstMs);
    const added = (xs: Reply[]) => (median(first(xs)) - median(first(bare))).toFixed(1);
    const of = (key: keyof Crash) => crashes.map((c) => c[key] as number);
    const alone = (xs: Runs) => xs.map((x) => x.alone);
    const many = (xs: Runs) => xs.map((x) => x.together.tokensPerSecond);
    const gain = (xs: Runs) => (median(many(xs)) / median(alone(xs))).toFixed(2);
    const queued = Object.values(parallel).reduce((n, xs) => n + xs.filter((x) => x.together.queued).length, 0);
    return [
      figure('built-in engine: tokens/s', 'tok/s', tps(hub), {
        baseline: tps(bare),
        target: `ratio ≥ 0.95 (baseline: node-llama-cpp's LlamaChat in this process, same model and settings); chat.send through the router, llama.cpp in the engine host; ${TOKENS} tokens, tiny GGUF, CPU, ${THREADS} thread`,
      }),
      figure('built-in engine: request → first token', 'ms', first(hub), {
        baseline: first(bare),
        target: `added ≤ 20 ms (median ${added(hub)} ms): chat.send through the router, which batches events per frame, the chat service and the engine host`,
      }),
      figure('built-in engine: request → first token, router sending each event at once', 'ms', first(unbatched), {
        baseline: first(bare),
        note: `added ${added(unbatched)} ms: the chat service and the engine host`,
      }),
      figure('built-in engine: engine host alone, generate → first piece', 'ms', first(runtime), {
        baseline: first(bare),
        target: `added ≤ 5 ms (median ${added(runtime)} ms): a lease's generate, the request to the host and its first piece back`,
      }),
      figure('built-in engine: engine host alone, tokens/s', 'tok/s', tps(runtime), {
        baseline: tps(bare),
        note: "a lease's generate, the host's pieces batched every 4 ms",
      }),
      figure(
        `built-in engine: ${PARALLEL} replies at once on one model, tokens/s together`,
        'tok/s',
        many(parallel.app),
        {
          baseline: alone(parallel.app),
          target: `ratio ≥ 2 (baseline: one reply alone on the same model); loaded with ${PARALLEL} sequences, ${PARALLEL} conversations' chat.send, ${TOKENS} tokens each, ${THREADS} thread; the same at once: engine host alone ×${gain(parallel.host)}, node-llama-cpp in this process ×${gain(parallel.direct)}; runs where a reply waited for another: ${queued}`,
        },
      ),
      figure(`built-in engine: a reply joining ${PARALLEL - 1} others streaming, request → first token`, 'ms', joined, {
        baseline: joinedAlone,
        target: `ratio ≤ 2 (baseline: the same reply alone): it starts beside them, not after them; a new conversation's chat.send on a model loaded with ${PARALLEL} sequences, each of which has answered before`,
      }),
      figure('built-in engine killed mid-reply: kill → next call answered', 'ms', of('statusMs'), {
        target: `≤ 1,000 ms: local.status right after SIGKILL of the host at the reply's first token; the reply under way failed ${median(of('failedMs')).toFixed(0)} ms after the kill`,
      }),
      figure("built-in engine killed mid-reply: next reply's first token", 'ms', of('nextFirstMs'), {
        baseline: [cold.firstMs],
        target:
          "≤ 3,000 ms: chat.send → first token with a new host and the model loaded again (baseline: the run's cold start, the first reply's)",
      }),
      figure("built-in engine: main's memory added by a loaded model", 'MB', [mb(mainLoaded - mainBefore)], {
        baseline: [mb(directLoaded - directBefore)],
        target: `ratio ≤ 0.1: main holds neither llama.cpp nor the weights (baseline: the same load and 3 replies with node-llama-cpp in this process, its first start); the model ${mb(modelBytes).toFixed(1)} MB of weights and context in the host`,
      }),
      figure("built-in engine: engine host's memory with the model loaded", 'MB', [mb(hostLoaded)], {
        note: `${mb(hostLoaded - hostIdle).toFixed(1)} MB more than with no model loaded`,
      }),
    ];
  } finally {
    await app.close();
  }
}
