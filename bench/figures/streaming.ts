import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../../tests/fixtures/ollama';
import { startBenchApp, watchFrames, type BenchApp } from '../lib/app';
import { launchChromium } from '../lib/browser';
import { figure, median, percentile, type BenchContext, type Figure } from '../lib/measure';

const MODEL = 'llama3.2:latest';
const now = () => performance.timeOrigin + performance.now();

/** Chunks that carry their index, so the page can tell when each one reached the DOM. */
const marked = (n: number) => Array.from({ length: n }, (_, i) => ` w${i}`);

/**
 * Baseline: the bare ollama client consuming the stream in its own Node process (as the app's main process does,
 * so neither shares an event loop with the fixture). Returns chunks/s.
 */
async function bareClient(fixture: OllamaFixture, n: number): Promise<number> {
  fixture.chatScript = () => ({ content: marked(n) });
  const { stdout } = await promisify(execFile)(process.execPath, [
    join(process.cwd(), 'bench/bare-client.mjs'),
    fixture.url,
    MODEL,
  ]);
  return Number(stdout.trim());
}

/** Opens a fresh conversation on the fixture's model in the app's chat page. */
export async function openChat(app: Pick<BenchApp, 'page'>): Promise<void> {
  const { page } = app;
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer').waitFor();
  // The model picker sits in the chat header.
  await page.getByTestId('model-select').selectOption(MODEL);
}

/**
 * Sends one message and waits until its reply is complete in the DOM. The reply opens with a tag naming the message:
 * the list is virtualized, so counting rows on screen cannot tell which reply is the new one. Returns ms.
 */
async function sendAndWait(app: BenchApp, fixture: OllamaFixture, text: string, chunks: number): Promise<number> {
  const { page } = app;
  const tag = `[${text}]`;
  fixture.chatScript = () => ({ content: [tag, ...marked(chunks)] });
  await page.getByTestId('composer').fill(text);
  // The previous reply's end reaches the store a moment after its message shows complete: until then Enter does not
  // send (the composer sends one message at a time), so wait for Send to be enabled.
  await page.locator('[data-testid="send"]:enabled').waitFor();
  const t = performance.now();
  await page.getByTestId('composer').press('Enter');
  await page
    .locator('[data-testid="msg-assistant"][data-status="complete"]', { hasText: tag })
    .waitFor({ timeout: 120_000 });
  return performance.now() - t;
}

/**
 * Streaming: chunks/s into the DOM through service + web transport + renderer vs the bare client; frame times and
 * long tasks at 50 and 1,000 tokens/s; added latency from a chunk leaving the fixture to its text in the DOM.
 */
export async function streaming(ctx: BenchContext): Promise<Figure[]> {
  const fixture = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
  const browser = await launchChromium();
  const out: Figure[] = [];
  try {
    const app = await startBenchApp(browser, { OLLAMA_HOST: fixture.url });
    try {
      await openChat(app);
      // Throughput: the fixture streams as fast as it can.
      const n = ctx.quick ? 5_000 : 20_000;
      fixture.chunkIntervalMs = -1;
      const runs = ctx.runs(5, 2);
      const bare: number[] = [];
      const viaApp: number[] = [];
      for (let r = 0; r < runs; r++) {
        bare.push(await bareClient(fixture, n));
        viaApp.push(n / ((await sendAndWait(app, fixture, `throughput ${r}`, n)) / 1000));
        await openChat(app); // a fresh, short conversation for each run
      }
      out.push(
        figure(`streaming: chunks/s into the DOM (${n} chunks)`, 'chunks/s', viaApp, {
          baseline: bare,
          target: 'ratio ≥ 0.5 (baseline: bare ollama client in Node)',
        }),
      );

      // Frame times while streaming at a fixed rate.
      for (const [rate, gap] of [
        [50, 20],
        [1000, 1],
      ] as const) {
        const count = rate * (ctx.quick ? 2 : 4);
        fixture.chunkIntervalMs = gap;
        const p99s: number[] = [];
        const p95s: number[] = [];
        const p50s: number[] = [];
        const longs: number[] = [];
        for (let r = 0; r < ctx.runs(3, 1); r++) {
          const w = await watchFrames(app.page);
          await sendAndWait(app, fixture, `rate ${rate} ${r}`, count);
          const { frames, longTasks } = await w.stop();
          p50s.push(percentile(frames, 50));
          p95s.push(percentile(frames, 95));
          p99s.push(percentile(frames, 99));
          longs.push(longTasks.length);
        }
        out.push(
          figure(`streaming ${rate} tok/s: frame time p50`, 'ms', p50s),
          figure(`streaming ${rate} tok/s: frame time p95`, 'ms', p95s),
          figure(`streaming ${rate} tok/s: frame time p99`, 'ms', p99s, {
            target: rate === 1000 ? '≤ 16.7 ms' : undefined,
          }),
          figure(`streaming ${rate} tok/s: long tasks (>50 ms)`, 'count', longs, {
            target: rate === 1000 ? '0' : undefined,
          }),
        );
      }

      // Added latency: fixture send time → text in the DOM, at 50 tokens/s so queues stay empty.
      const count = ctx.quick ? 100 : 300;
      fixture.chunkIntervalMs = 20;
      const p50: number[] = [];
      const p99: number[] = [];
      for (let r = 0; r < ctx.runs(3, 1); r++) {
        const sent: number[] = [];
        fixture.onChunk = (i) => (sent[i] = now());
        await app.page.evaluate(() => {
          const w = window as unknown as { __seen: number[]; __obs?: MutationObserver };
          w.__obs?.disconnect();
          w.__seen = [];
          let next = 0;
          const list = document.querySelector('[data-testid="message-list"]') ?? document.body;
          w.__obs = new MutationObserver(() => {
            const el = document.querySelector('[data-testid="msg-streaming"]');
            if (!el) return;
            const text = (el.textContent ?? '').trimEnd();
            const t = performance.timeOrigin + performance.now();
            // ` w1` is inside ` w10`: a marker counts when followed by a space or at the end.
            const has = (k: number) => text.includes(`w${k} `) || text.endsWith(`w${k}`);
            while (has(next)) w.__seen[next++] = t;
          });
          w.__obs.observe(list, { subtree: true, childList: true, characterData: true });
        });
        await sendAndWait(app, fixture, `latency ${r}`, count);
        fixture.onChunk = undefined;
        const seen: number[] = await app.page.evaluate(() => (window as unknown as { __seen: number[] }).__seen);
        // Chunk 0 is the tag: marker k travelled in chunk k + 1.
        const lat = seen.map((t, k) => t - sent[k + 1]).filter((x) => Number.isFinite(x));
        ctx.log(`latency run ${r}: ${lat.length} of ${count} chunks seen, median ${median(lat).toFixed(1)} ms`);
        p50.push(percentile(lat, 50));
        p99.push(percentile(lat, 99));
      }
      out.push(
        figure('added latency: fixture → DOM p50', 'ms', p50, { note: `${count} chunks a run at 50 tok/s` }),
        figure('added latency: fixture → DOM p99', 'ms', p99, { target: '≤ 21.7 ms (one frame + 5 ms)' }),
      );
    } finally {
      await app.stop();
    }
  } finally {
    await browser.close();
    await fixture.stop();
  }
  return out;
}
