import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Journal } from '../../electron/main/services/chat/storage/journal';
import { WINDOW } from '../../electron/main/services/chat/storage/conversation';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { writeFileAtomic } from '../../electron/main/services/fs/atomic-write';
import { createLogger } from '../../electron/main/services/log';
import { figure, timeRuns, type BenchContext, type Figure } from '../lib/measure';
import { syntheticExport, syntheticMessages } from '../../tests/fixtures/conversation';
import { fixtureModel, startOllamaFixture } from '../../tests/fixtures/ollama';
import { startTestApp } from '../../tests/helpers/app';

/** The main event loop's delay (ms) while `fn` runs: p99 and the longest block, sampled every millisecond. */
async function loopDelayWhile(fn: () => Promise<unknown>): Promise<{ p99: number; max: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  try {
    await fn();
  } finally {
    h.disable();
  }
  return { p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
}

/**
 * Does streaming with checkpoints block main? The real chat service (store, checkpoints every 500 ms, events)
 * writes a reply streamed at 1,000 tok/s onto a 1,000-message conversation, against the same stream read by the
 * bare ollama client with no store, in the same process and run (the fixture's own work is in both).
 */
async function streamingLoopDelay(ctx: BenchContext): Promise<Figure[]> {
  const model = 'llama3.2:latest';
  const fixture = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
  fixture.chunkIntervalMs = 1;
  const n = ctx.quick ? 1000 : 3000;
  const words = Array.from({ length: n }, (_, i) => ` w${i}`);
  fixture.chatScript = () => ({ content: words });
  const app = await startTestApp({ env: { OLLAMA_HOST: fixture.url } });
  const stored = { p99: [] as number[], max: [] as number[] };
  const bare = { p99: [] as number[], max: [] as number[] };
  try {
    const chat = app.services.chat;
    for (let r = 0; r < ctx.runs(3, 1); r++) {
      // A new conversation each round (the same file's conversation: imported again as a copy).
      const { id } = chat.store.import(JSON.stringify(syntheticExport(1000, `stream ${r}`)), true);
      const noop = { signal: new AbortController().signal, emit: () => {} };
      const s = await loopDelayWhile(async () => {
        const out = await chat.send({ id, content: 'go' }, noop);
        if (out.messages.at(-1)?.content !== words.join('')) throw new Error('the reply lost tokens');
      });
      const b = await loopDelayWhile(async () => {
        let text = '';
        const it = await app.services.ollama
          .client()
          .chat({ model, messages: [{ role: 'user', content: 'go' }], stream: true });
        for await (const part of it) text += part.message.content;
        if (text !== words.join('')) throw new Error('the bare stream lost tokens');
      });
      stored.p99.push(s.p99);
      stored.max.push(s.max);
      bare.p99.push(b.p99);
      bare.max.push(b.max);
    }
  } finally {
    await app.close();
    await fixture.stop();
  }
  return [
    figure('persistence: main event-loop delay p99, streaming 1,000 tok/s with checkpoints', 'ms', stored.p99, {
      baseline: bare.p99,
      target: `ratio ≈ 1 (baseline: the same stream, bare ollama client, no store); ${n} tokens a run`,
    }),
    figure('persistence: longest main event-loop block, streaming with checkpoints', 'ms', stored.max, {
      baseline: bare.max,
      target: '< 50 ms (no long task in main)',
    }),
  ];
}

/**
 * Persistence in the SQLite store: messages appended, each committed durably (synchronous=FULL) before the next,
 * against what the store before it did per message in the same run — a JSONL journal line (fsync) plus the
 * conversation's meta.json written atomically (temp file, fsync, rename, fsync of the directory) — and against the
 * bare journal line alone (no metadata: less work than either store does). The three are interleaved message by
 * message, so a slow spell of the shared disk falls on all of them. Then a streaming checkpoint, and opening a
 * 10,000-message conversation (the window `chat.get` sends) against a 100-message one.
 */
export async function persistence(ctx: BenchContext): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-store-'));
  const log = createLogger();
  try {
    const n = ctx.quick ? 200 : 1000;
    const rates: number[] = [];
    const oldStoreRates: number[] = [];
    const journalRates: number[] = [];
    const checkpoints: number[] = [];
    for (let r = 0; r < ctx.runs(3, 2); r++) {
      const store = new ChatStore({ file: join(dir, `append-${r}.sqlite`) }, log);
      const conv = store.get(store.create({ model: 'm' }).id);
      const old = Journal.open(join(dir, `old-${r}`, 'journal.jsonl'));
      const bare = Journal.open(join(dir, `append-${r}.jsonl`));
      const msgs = syntheticMessages(n);
      const spent = [0, 0, 0];
      for (const [i, msg] of msgs.entries()) {
        let t = performance.now();
        conv.put(msg);
        spent[0] += performance.now() - t;
        t = performance.now();
        old.append([{ t: 'put', msg }]);
        writeFileAtomic(join(dir, `old-${r}`, 'meta.json'), JSON.stringify({ ...conv.meta, messageCount: i + 1 }));
        spent[1] += performance.now() - t;
        t = performance.now();
        bare.append([{ t: 'put', msg }]);
        spent[2] += performance.now() - t;
      }
      rates.push(n / (spent[0] / 1000));
      oldStoreRates.push(n / (spent[1] / 1000));
      journalRates.push(n / (spent[2] / 1000));
      old.close();
      bare.close();
      const last = msgs.at(-1)!.id;
      const t = performance.now();
      for (let i = 0; i < n; i++) conv.append(last, 'token ', '');
      checkpoints.push((performance.now() - t) / n);
      store.close();
    }

    const store = new ChatStore({ file: join(dir, 'open.sqlite') }, log);
    const big = store.import(JSON.stringify(syntheticExport(10_000, 'big'))).id;
    const small = store.import(JSON.stringify(syntheticExport(100, 'small'))).id;
    store.close();
    const runs = ctx.runs(7, 3);
    // Each open is a cold one: a fresh store, as after a start, then what `chat.get` answers (the window).
    const openOf = (id: string, count: number) => {
      // The content: the small conversation's ids were renewed on import (the big one holds the same ids).
      const last = syntheticMessages(count)[count - 1].content;
      return () => {
        const s = new ChatStore({ file: join(dir, 'open.sqlite') }, log);
        const conv = s.get(id);
        const view = { meta: conv.meta, ...conv.window() };
        if (
          view.messages.length !== WINDOW ||
          view.messages.at(-1)?.content !== last ||
          view.meta.messageCount !== count
        )
          throw new Error('store lost messages');
        s.close();
      };
    };
    // Alternated, after one open of each, so neither gains from going second (a warmer page cache).
    const [bigOpen, smallOpen] = [openOf(big, 10_000), openOf(small, 100)];
    bigOpen();
    smallOpen();
    const openBig: number[] = [];
    const openSmall: number[] = [];
    for (let i = 0; i < runs * 2; i++)
      for (const [fn, out] of [
        [bigOpen, openBig],
        [smallOpen, openSmall],
      ] as const) {
        const t = performance.now();
        fn();
        out.push(performance.now() - t);
      }
    // Scrolled to the top of the window: the 100 messages before it, from an open store.
    const s = new ChatStore({ file: join(dir, 'open.sqlite') }, log);
    const conv = s.get(big);
    const first = conv.window().messages[0].id;
    const older = await timeRuns(runs, () => {
      if (conv.older(first).messages.length !== WINDOW) throw new Error('store lost messages');
    });
    s.close();
    return [
      ...(await streamingLoopDelay(ctx)),
      figure('persistence: messages appended (committed each)', 'msg/s', rates, {
        baseline: oldStoreRates,
        target: `ratio ≥ 1 (baseline: the journal store it replaced, journal line + meta.json, fsync'd); ${n} a run`,
      }),
      figure('persistence: messages appended, against a bare journal line', 'msg/s', rates, {
        baseline: journalRates,
        note: "baseline: one fsync'd JSONL line, no metadata (less than either store writes)",
      }),
      figure('persistence: one streaming checkpoint (committed)', 'ms', checkpoints, {
        note: `${n} checkpoints a run, at most 2 a second while streaming`,
      }),
      figure('persistence: open a 10,000-message conversation', 'ms', openBig, {
        baseline: openSmall,
        target: `ratio ≤ 1.2 (baseline: 100 messages; both cold, store included; the last ${WINDOW} sent)`,
      }),
      figure('persistence: 100 earlier messages (scrolled to the top)', 'ms', older, {
        note: 'in the 10,000-message conversation',
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
