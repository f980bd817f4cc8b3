import OpenAI from 'openai';
import { startLlama } from '../../electron/main/services/local/runtime/llama';
import { replyDirect, startLocalApp, PROMPT, type Reply } from '../lib/local-app';
import { figure, median, type BenchContext, type Figure } from '../lib/measure';

const TOKENS = 800;
/** One thread, as the engine bench: two decode the tiny model far slower on these 2-core machines. */
const THREADS = 1;
const CONTEXT = 1024;
const KEY = 'hubdesk-bench-key-0123456789';
/** Requests at once for a model not yet loaded. */
const COLD = 10;

/** One streamed chat completion through the local server, as an app with the official client sees it. */
async function replyServer(client: OpenAI, model: string, tokens: number): Promise<Reply> {
  const t = performance.now();
  let first = 0;
  let last = 0;
  let count = 0;
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: PROMPT }],
    max_tokens: tokens,
    temperature: 0,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const c of stream) {
    if (c.choices[0]?.delta.content) {
      last = performance.now();
      first ||= last;
    }
    if (c.usage) count = c.usage.completion_tokens;
  }
  if (!count) throw new Error('the server reply had no tokens');
  return {
    startedAt: t,
    firstMs: first - t,
    lastMs: last - t,
    tokens: count,
    tokensPerSecond: count / ((last - t) / 1000),
  };
}

/**
 * The local server against node-llama-cpp called in this process (the same tiny GGUF, context and thread): a
 * streamed reply's speed and first token as the official openai client gets them, and how many loads ten cold
 * requests for one model make.
 */
export async function localServer(ctx: BenchContext): Promise<Figure[]> {
  const app = await startLocalApp({ threads: THREADS, copies: 2 });
  const { router, services } = app;
  const [model, cold] = app.models;
  try {
    const port = 18_000 + Math.floor(Math.random() * 2_000);
    const s = (await router.call('local.server.set', { enabled: true, port, key: KEY })) as { url?: string };
    if (!s.url) throw new Error('the local server did not start');
    const client = new OpenAI({ baseURL: s.url, apiKey: KEY, maxRetries: 0 });

    // Ten cold requests at once: each load the runtime makes goes through its one `open`.
    const runtime = services.local.runtime as unknown as { open: (...a: unknown[]) => Promise<unknown> };
    const open = runtime.open.bind(runtime);
    let loads = 0;
    runtime.open = (...a) => (loads++, open(...a));
    const coldRuns = await Promise.all(Array.from({ length: COLD }, () => replyServer(client, cold, 8)));
    runtime.open = open;
    ctx.log(
      `${COLD} cold requests: ${loads} load(s); first token after ${median(coldRuns.map((r) => r.firstMs)).toFixed(0)} ms`,
    );
    await router.call('local.unload', {});

    await router.call('local.load', { id: model, contextSize: CONTEXT, sequences: 1 });
    const llama = await startLlama({ gpu: false, log: services.log });
    const direct = await llama.loadModel({ modelPath: app.file });
    const context = await direct.createContext({ contextSize: CONTEXT, threads: THREADS, sequences: 1 });
    const { LlamaChat } = await import('node-llama-cpp');
    const chat = new LlamaChat({ contextSequence: context.getSequence() });
    const server: Reply[] = [];
    const bare: Reply[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        await replyServer(client, model, TOKENS);
        await replyDirect(chat, TOKENS);
      }
      for (let r = 0; r < ctx.runs(9, 3); r++) {
        // Alternate which side goes first, so neither always runs on a warmer machine.
        const sides = [
          async () => server.push(await replyServer(client, model, TOKENS)),
          async () => bare.push(await replyDirect(chat, TOKENS)),
        ];
        for (let i = 0; i < sides.length; i++) await sides[(r + i) % sides.length]();
      }
    } finally {
      chat.dispose({ disposeSequence: true });
      await context.dispose();
      await direct.dispose();
    }
    const tps = (xs: Reply[]) => xs.map((x) => x.tokensPerSecond);
    const first = (xs: Reply[]) => xs.map((x) => x.firstMs);
    const added = (median(first(server)) - median(first(bare))).toFixed(1);
    return [
      figure('local server: streamed reply, tokens/s', 'tok/s', tps(server), {
        baseline: tps(bare),
        target: `ratio ≥ 0.9 (baseline: node-llama-cpp's LlamaChat in this process, same GGUF, context and thread); the official openai client streaming /v1/chat/completions, ${TOKENS} tokens, tiny GGUF, CPU`,
      }),
      figure('local server: request → first token', 'ms', first(server), {
        baseline: first(bare),
        target: `added ≤ 5 ms (median ${added} ms): HTTP, the chat engine's conversion and the engine host`,
      }),
      figure(`local server: ${COLD} cold requests for one model, loads`, 'loads', [loads], {
        target: `= 1: one load however many requests arrive before it ends (first token of the ${COLD}: ${median(first(coldRuns)).toFixed(0)} ms)`,
      }),
    ];
  } finally {
    await app.close();
  }
}
