import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LlamaChat } from 'node-llama-cpp';
import type { StreamPayload } from '@shared/transport';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices } from '../../electron/main/services';
import { startLlama } from '../../electron/main/services/local/runtime/llama';
import { tinyGguf } from '../../tests/fixtures/tiny-gguf';
import { figure, median, type BenchContext, type Figure } from '../lib/measure';

/** Long enough that the router's per-frame batching (16 ms) is small against the generation time. */
const TOKENS = 800;
const PROMPT = 'hello';
/** One thread: on these 2-core machines two are ~15× slower for the tiny model. */
const THREADS = 1;
const CONTEXT = 1024;

interface Run {
  /** Request → first text at the consumer. */
  firstMs: number;
  /**
   * Tokens over request → last text at the consumer. Not first → last: generation keeps the event loop busy, so
   * HubDesk's first delta can leave late and shorten that interval, which would flatter it.
   */
  tokensPerSecond: number;
}

/** HubDesk: `chat.send` through the router (events consumed as the transport would), the built-in engine answering. */
async function viaHubDesk(router: Router, model: string): Promise<Run> {
  const { id } = (await router.call('chat.create', {
    backend: 'local',
    model,
    params: { max_tokens: TOKENS, temperature: 0 },
  })) as { id: string };
  const t = performance.now();
  let first = 0;
  let last = 0;
  let tokens = 0;
  let failed: unknown;
  const running = router.stream('chat.send', { id, content: PROMPT }, (msg: StreamPayload) => {
    if (msg.type === 'error') failed = msg.error;
    if (msg.type !== 'events') return;
    for (const e of msg.events as {
      type: string;
      content?: string;
      message?: { role: string; status: string; figures?: { evalTokens?: number } };
    }[]) {
      if (e.type === 'delta' && e.content) {
        last = performance.now();
        first ||= last;
      }
      if (e.type === 'message' && e.message?.role === 'assistant' && e.message.status === 'complete')
        tokens = e.message.figures?.evalTokens ?? 0;
    }
  });
  await running.done;
  if (failed || !tokens) throw new Error(`the reply did not complete: ${JSON.stringify(failed)}`);
  return { firstMs: first - t, tokensPerSecond: tokens / ((last - t) / 1000) };
}

/** Baseline: node-llama-cpp called directly, the same settings, one LlamaChat kept as HubDesk keeps one per model. */
async function viaLlamaChat(chat: LlamaChat): Promise<Run> {
  const before = chat.sequence.tokenMeter.getState().usedOutputTokens;
  const t = performance.now();
  let first = 0;
  let last = 0;
  await chat.generateResponse(
    [
      { type: 'user', text: PROMPT },
      { type: 'model', response: [] },
    ],
    {
      maxTokens: TOKENS,
      temperature: 0,
      onResponseChunk: (c) => {
        if (!c.text) return;
        last = performance.now();
        first ||= last;
      },
    },
  );
  const tokens = chat.sequence.tokenMeter.getState().usedOutputTokens - before;
  return { firstMs: first - t, tokensPerSecond: tokens / ((last - t) / 1000) };
}

/** The process's resident memory after a full garbage collection (gc exposed at run time: no node flag needed). */
function rss(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().rss;
}

/** The built-in engine against node-llama-cpp alone: speed, time to first token, and memory given back on unload. */
export async function localEngine(ctx: BenchContext): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-local-'));
  const models = join(dir, 'models');
  const file = join(models, 'tiny.gguf');
  mkdirSync(models, { recursive: true });
  writeFileSync(file, tinyGguf());
  const services = createServices({
    mode: 'web',
    version: 'bench',
    env: {},
    dataDir: join(dir, 'data'),
    local: { runtime: { gpu: false, threads: THREADS }, home: dir },
  });
  const router = new Router(createHandlers(services), services.log);
  const eachEvent = new Router(createHandlers(services), services.log, 0);
  const { LlamaChat } = await import('node-llama-cpp');
  try {
    const list = (await router.call('local.folders.add', { path: models })) as { models: { id: string }[] };
    const model = list.models[0].id;
    await router.call('local.load', { id: model, contextSize: CONTEXT });
    // The runtime's own llama.cpp (one per process), so both sides share the binding and its threads.
    const llama = await startLlama({ gpu: false, log: services.log });
    const direct = await llama.loadModel({ modelPath: file });
    const context = await direct.createContext({ contextSize: CONTEXT, threads: THREADS });
    const chat = new LlamaChat({ contextSequence: context.getSequence() });
    const hub: Run[] = [];
    const unbatched: Run[] = [];
    const bare: Run[] = [];
    try {
      await viaHubDesk(router, model);
      await viaLlamaChat(chat);
      for (let r = 0; r < ctx.runs(9, 3); r++) {
        // Rotate the order so no side always runs on a warmer machine.
        const sides = [
          async () => hub.push(await viaHubDesk(router, model)),
          async () => unbatched.push(await viaHubDesk(eachEvent, model)),
          async () => bare.push(await viaLlamaChat(chat)),
        ];
        for (let i = 0; i < sides.length; i++) await sides[(r + i) % sides.length]();
      }
    } finally {
      chat.dispose({ disposeSequence: true });
      await context.dispose();
      await direct.dispose();
    }
    await router.call('local.unload', {});

    // Memory, on a warm process (llama.cpp started, the chat path run): before a load, and after chats and unload.
    const beforeLoad = rss();
    await router.call('local.load', { id: model, contextSize: CONTEXT });
    for (let i = 0; i < 3; i++) await viaHubDesk(router, model);
    await router.call('local.unload', {});
    const afterUnload = rss();

    const tps = (xs: Run[]) => xs.map((x) => x.tokensPerSecond);
    const first = (xs: Run[]) => xs.map((x) => x.firstMs);
    const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
    return [
      figure('built-in engine: tokens/s', 'tok/s', tps(hub), {
        baseline: tps(bare),
        target: `ratio ≥ 0.95 (baseline: node-llama-cpp's LlamaChat, same model and settings); ${TOKENS} tokens, tiny GGUF, CPU, ${THREADS} thread`,
      }),
      figure('built-in engine: request → first token', 'ms', first(hub), {
        baseline: first(bare),
        target: `added ≤ 20 ms (median ${(median(first(hub)) - median(first(bare))).toFixed(1)} ms); the router batches events per frame`,
      }),
      figure('built-in engine: request → first token, router sending each event at once', 'ms', first(unbatched), {
        baseline: first(bare),
        note: `added ${(median(first(unbatched)) - median(first(bare))).toFixed(1)} ms: the chat service and engine alone`,
      }),
      figure('built-in engine: process memory after unload / before load', '×', [afterUnload / beforeLoad], {
        target: `within 5% (1.00 ± 0.05); before ${mb(beforeLoad)}, after ${mb(afterUnload)}`,
      }),
    ];
  } finally {
    await services.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
