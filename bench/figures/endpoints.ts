import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { StreamPayload } from '@shared/transport';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices } from '../../electron/main/services';
import { startOllamaFixture } from '../../tests/fixtures/ollama';
import { closedPort } from '../../tests/helpers/ports';
import { startBenchApp, type BenchApp } from '../lib/app';
import { launchChromium, spawnServer } from '../lib/browser';
import { figure, type BenchContext, type Figure } from '../lib/measure';

/** The model llama-server serves in the fixture (it answers with this name whatever is asked). */
const MODEL = 'Qwen3-0.6B-Q8_0.gguf';

/** The llama-server fixture in its own process, every reply `tokens` tokens ` w0 w1 …`, one each `intervalMs`. */
async function startFixture(tokens: number, intervalMs: number) {
  return spawnServer(
    [join(process.cwd(), 'bench/openai-fixture.mjs'), String(tokens), String(intervalMs)],
    /^OpenAI fixture: (\S+)$/,
  );
}

const replyText = (tokens: number) => Array.from({ length: tokens }, (_, i) => ` w${i}`).join('');

interface Timing {
  firstMs: number;
  lastMs: number;
}

/** Baseline: the `openai` client streaming the same reply, every chunk consumed. */
async function viaOpenAI(client: OpenAI, expected: number): Promise<Timing> {
  const t = performance.now();
  let first = 0;
  let last = 0;
  let got = 0;
  const stream = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'user', content: 'go' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (!text) continue;
    got += text.length;
    const now = performance.now();
    if (!first) first = now;
    if (got === expected) last = now;
  }
  return { firstMs: first - t, lastMs: last - t };
}

/**
 * HubDesk: `chat.send` through the router, as main serves it to the window (the router validates the input and
 * batches events per frame; the chat service stores the question, the endpoint engine streams, the reply is
 * checkpointed and stored). The clock stops when the sink — the transport in the app — has the text.
 */
async function viaHubDesk(router: Router, conversation: string, expected: number): Promise<Timing> {
  const t = performance.now();
  let first = 0;
  let last = 0;
  let got = 0;
  let failed: unknown;
  const running = router.stream('chat.send', { id: conversation, content: 'go' }, (msg: StreamPayload) => {
    if (msg.type === 'error') failed = msg.error;
    if (msg.type !== 'events') return;
    for (const e of msg.events as { type: string; content?: string }[]) {
      if (e.type !== 'delta' || !e.content) continue;
      got += e.content.length;
      const now = performance.now();
      if (!first) first = now;
      if (got === expected) last = now;
    }
  });
  await running.done;
  if (failed || !last) throw new Error(`the reply did not arrive whole: ${JSON.stringify(failed)}`);
  return { firstMs: first - t, lastMs: last - t };
}

/** Added latency of the endpoint engine against the `openai` client, on the same fixture stream (interleaved). */
export async function endpointEngine(ctx: BenchContext): Promise<Figure[]> {
  const tokens = 300;
  const fixture = await startFixture(tokens, 0);
  const dataDir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-endpoints-'));
  const services = createServices({ mode: 'web', version: 'bench', env: {}, dataDir });
  const router = new Router(createHandlers(services), services.log);
  // The same services behind a router that does not batch events per frame: what the chat service and engine cost.
  const eachEvent = new Router(createHandlers(services), services.log, 0);
  try {
    const { endpoint } = (await router.call('endpoints.save', {
      name: 'bench',
      preset: 'llama.cpp',
      baseUrl: fixture.url,
    })) as { endpoint: { id: string; baseUrl: string } };
    const client = new OpenAI({ baseURL: `${fixture.url}/v1`, apiKey: 'none' });
    const conversation = async () =>
      (
        (await router.call('chat.create', { backend: 'endpoint', endpoint: endpoint.id, model: MODEL })) as {
          id: string;
        }
      ).id;
    const expected = replyText(tokens).length;
    // Warm both paths once (JIT, the first connection, SQLite's first writes).
    await viaOpenAI(client, expected);
    await viaHubDesk(router, await conversation(), expected);
    await viaHubDesk(eachEvent, await conversation(), expected);
    const hub: Timing[] = [];
    const unbatched: Timing[] = [];
    const bare: Timing[] = [];
    const runs = ctx.runs(15, 5);
    for (let r = 0; r < runs; r++) {
      // Rotate the order so no side always runs on a warmer machine.
      const sides = [
        async () => hub.push(await viaHubDesk(router, await conversation(), expected)),
        async () => unbatched.push(await viaHubDesk(eachEvent, await conversation(), expected)),
        async () => bare.push(await viaOpenAI(client, expected)),
      ];
      for (let i = 0; i < sides.length; i++) await sides[(r + i) % sides.length]();
    }
    const last = (xs: Timing[]) => xs.map((x) => x.lastMs);
    const first = (xs: Timing[]) => xs.map((x) => x.firstMs);
    return [
      figure('endpoint engine: request → last token', 'ms', last(hub), {
        baseline: last(bare),
        target: `ratio ≤ 1.05 (baseline: the openai client, same stream); ${tokens} tokens, one a ms`,
      }),
      figure('endpoint engine: request → first token', 'ms', first(hub), {
        baseline: first(bare),
        note: "after the question's echo, the reply's start waits for the router's next batch (16 ms)",
      }),
      figure('endpoint engine: request → first token, router sending each event at once', 'ms', first(unbatched), {
        baseline: first(bare),
        note: 'the chat service and engine alone; the question is stored before the request',
      }),
    ];
  } finally {
    await services.dispose();
    rmSync(dataDir, { recursive: true, force: true });
    await fixture.stop();
  }
}

/** What the page saw around a Stop: the click, the reply's text changes, and the text at the end (epoch ms). */
interface StopProbe {
  click: number;
  lastChange: number;
  /** Text changes seen before the click: the probe watched a live reply. */
  changesBefore: number;
  text: string;
}

/** Watches the last assistant reply's text in the page and the Stop button's click. */
async function watchStop(app: BenchApp): Promise<void> {
  await app.page.evaluate(() => {
    const w = window as unknown as { __stop: StopProbe; __stopObs?: MutationObserver };
    w.__stopObs?.disconnect();
    const probe: StopProbe = { click: 0, lastChange: 0, changesBefore: 0, text: '' };
    w.__stop = probe;
    const now = () => performance.timeOrigin + performance.now();
    const bodyText = () => {
      const all = document.querySelectorAll('[data-testid="msg-assistant"] .msg-body');
      return (all[all.length - 1]?.textContent ?? '').trim();
    };
    document.addEventListener(
      'click',
      (e) => {
        if ((e.target as Element).closest('[data-testid="stop"]') && !probe.click) probe.click = now();
      },
      { capture: true },
    );
    w.__stopObs = new MutationObserver(() => {
      const text = bodyText();
      if (text === probe.text) return;
      probe.text = text;
      probe.lastChange = now();
      if (!probe.click) probe.changesBefore++;
    });
    const list = document.querySelector('[data-testid="message-list"]') ?? document.body;
    w.__stopObs.observe(list, { subtree: true, childList: true, characterData: true });
  });
}

/** Stop → no further token painted: click to the reply's last text change in the DOM, on a steady stream. */
export async function endpointStop(ctx: BenchContext): Promise<Figure[]> {
  const fixture = await startFixture(5_000, 10); // 100 tok/s, far longer than a try
  const ollama = await startOllamaFixture({ models: [] });
  const browser = await launchChromium();
  try {
    const app = await startBenchApp(browser, { OLLAMA_HOST: ollama.url });
    try {
      await app.client.call('endpoints.save', { name: 'bench', preset: 'llama.cpp', baseUrl: fixture.url });
      const { page } = app;
      await page.goto(app.url); // the page reads the endpoints as it loads
      const gaps: number[] = [];
      let mismatches = 0;
      for (let r = 0; r < ctx.runs(9, 3); r++) {
        await page.getByTestId('nav-chat').click();
        await page.getByTestId('new-chat').click();
        await page.getByTestId('composer').waitFor();
        // The engine picker sits in the chat header.
        await page.getByRole('radio', { name: 'llama.cpp — bench' }).click();
        await page.getByTestId('composer').fill(`stop ${r}`);
        await page.locator('[data-testid="send"]:enabled').waitFor();
        await watchStop(app);
        await page.getByTestId('composer').press('Enter');
        const streaming = page.getByTestId('msg-streaming');
        await streaming.waitFor();
        // Some text first, varying where in a frame the click lands.
        await page.waitForFunction(
          (n) => (document.querySelector('[data-testid="msg-streaming"]')?.textContent ?? '').length > n,
          300 + 37 * r,
        );
        await page.getByTestId('stop').click();
        await page.locator('[data-testid="msg-assistant"][data-status="stopped"]').waitFor();
        // A late token would land within a few frames of the reply's end: wait well past that.
        await page.waitForTimeout(500);
        const probe = await page.evaluate(() => (window as unknown as { __stop: StopProbe }).__stop);
        // At or before the click (≤ 0): nothing changed after it.
        gaps.push(Math.max(0, probe.lastChange - probe.click));
        ctx.log(
          `stop ${r}: ${probe.changesBefore} text changes before the click, last change ${(probe.lastChange - probe.click).toFixed(1)} ms from it`,
        );
        const { conversations } = await app.client.call('chat.list', { limit: 1 });
        const view = await app.client.call('chat.get', { id: conversations[0].id });
        const stored = view.messages.at(-1);
        const same = stored?.status === 'stopped' && stored.content.trim() === probe.text;
        if (!same) {
          mismatches++;
          ctx.log(
            `stop ${r}: the page shows ${probe.text.length} chars, main stored ${stored?.content.trim().length} (${stored?.status})`,
          );
        }
      }
      ctx.log(`stop: click → last text change ${gaps.map((g) => g.toFixed(1)).join(', ')} ms`);
      const note = `100 tok/s; the text left equals what main stored in ${gaps.length - mismatches} of ${gaps.length}`;
      return [
        figure('endpoint chat: Stop → last text change, p50', 'ms', gaps, { note }),
        {
          ...figure('endpoint chat: Stop → last text change, max', 'ms', [Math.max(...gaps)]),
          runs: gaps.length,
          target: '≤ 100 ms',
        },
      ];
    } finally {
      await app.stop();
    }
  } finally {
    await browser.close();
    await ollama.stop();
    await fixture.stop();
  }
}

/** The doctor's verdict for a dead address (a closed loopback port) and an unknown host, as Test asks for it. */
export async function endpointDoctor(ctx: BenchContext): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-doctor-'));
  const services = createServices({ mode: 'web', version: 'bench', env: {}, dataDir });
  const router = new Router(createHandlers(services), services.log);
  const verdict = async (baseUrl: string) => {
    const t = performance.now();
    const { endpoint, report } = (await router.call('endpoints.save', { name: 'dead', preset: 'vllm', baseUrl })) as {
      endpoint: { id: string };
      report: { problem?: { code: string; message: string } };
    };
    const ms = performance.now() - t;
    await router.call('endpoints.remove', { id: endpoint.id });
    return { ms, problem: report.problem };
  };
  try {
    const closed: number[] = [];
    const unknown: number[] = [];
    for (let r = 0; r < ctx.runs(5, 2); r++) {
      const a = await verdict(`http://127.0.0.1:${await closedPort()}`);
      const b = await verdict('http://no-such-host.invalid');
      if (r === 0) ctx.log(`doctor: "${a.problem?.message}" | "${b.problem?.message}"`);
      closed.push(a.ms);
      unknown.push(b.ms);
    }
    return [
      figure('endpoint doctor: verdict for a closed port on 127.0.0.1', 'ms', closed, { target: '≤ 3,000 ms' }),
      figure('endpoint doctor: verdict for an unknown host (.invalid)', 'ms', unknown, {
        note: "http://no-such-host.invalid, as this machine's resolver answers",
      }),
    ];
  } finally {
    await services.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
