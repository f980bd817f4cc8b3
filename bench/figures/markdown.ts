import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { syntheticExport } from '../../tests/fixtures/conversation';
import { markdownStream } from '../../tests/fixtures/markdown-stream';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../../tests/fixtures/ollama';
import { startBenchApp, watchFrames, type BenchApp } from '../lib/app';
import { launchChromium } from '../lib/browser';
import { describeLongFrames, finishProbe, installProbe, markStart, settle, type ProbeResult } from '../lib/md-probe';
import { percentile, peerFigure, type BenchContext, type Figure } from '../lib/measure';
import { buildPeers, PEERS, peersOut, startPeerServer, type PeerServer } from '../lib/peers';
import { openChat } from './streaming';

const now = () => performance.timeOrigin + performance.now();
const HUB = 'HubDesk';
type Renderer = typeof HUB | (typeof PEERS)[number];
const RENDERERS: Renderer[] = [HUB, ...PEERS];
const FINISHED_TITLE = 'Bench markdown-heavy reply';

/** How the bench drives one renderer: a fresh page for each run, where its message is, how a stream starts. */
interface Target {
  page: Page;
  /** The message element (the last match). */
  selector: string;
  /** Present once the reply is complete. */
  done: string;
  /** The element that scrolls the message. */
  scroller: string;
  send(): Promise<void>;
}

async function hubTarget(browser: Browser, app: BenchApp, forStream: boolean): Promise<Target> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(app.url); // the first load keeps the secret in sessionStorage
  if (forStream) await openChat({ page });
  return {
    page,
    selector: '[data-testid="msg-assistant"]',
    done: '[data-testid="msg-assistant"][data-status="complete"]',
    scroller: '[data-testid="message-list"]',
    send: async () => {
      await page.getByTestId('composer').fill('Show me everything');
      await page.locator('[data-testid="send"]:enabled').waitFor(); // the previous reply has ended (see streaming.ts)
      await page.getByTestId('composer').press('Enter');
    },
  };
}

async function peerTarget(browser: Browser, srv: PeerServer, peer: string): Promise<Target> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${srv.url}/${peer}/`);
  await page.waitForFunction(() => 'stream' in ((window as unknown as { __peer?: object }).__peer ?? {}));
  return {
    page,
    selector: '#msg',
    done: '#msg[data-status="complete"]',
    scroller: '#scroll',
    send: () => page.evaluate(() => void (window as unknown as { __peer: { stream(): unknown } }).__peer.stream()),
  };
}

/**
 * Scripts the fixture to answer with `chunks`, `rate` chunks a second (paced against the first chunk's time, so
 * timer slack does not lower the rate), or as fast as the socket takes without `rate`. Returns the send times.
 */
function script(fixture: OllamaFixture, chunks: string[], rate?: number): number[] {
  const sent: number[] = [];
  let start = 0;
  let i = 0;
  fixture.chatScript = () => ({ content: chunks });
  fixture.onChunk = (k) => {
    i = k;
    sent[k] = now();
    if (k === 0) start = performance.now();
  };
  Object.defineProperty(fixture, 'chunkIntervalMs', {
    configurable: true,
    get: () => (rate ? Math.max(0, start + ((i + 1) * 1000) / rate - performance.now()) : -1),
    set: () => {},
  });
  return sent;
}

interface StreamRun {
  p99: number;
  longTasks: number;
  lastToken: number;
  half: number;
  rate: number;
  probe: ProbeResult;
}

async function streamOnce(t: Target, fixture: OllamaFixture, chunks: string[], rate?: number): Promise<StreamRun> {
  const sent = script(fixture, chunks, rate);
  await settle(t.page);
  await installProbe(t.page, t.selector, true);
  const w = await watchFrames(t.page);
  await t.send();
  const probe = await finishProbe(t.page, t.selector, t.done);
  const { frames, longTasks } = await w.stop();
  const last = sent[chunks.length - 1];
  return {
    p99: percentile(frames, 99),
    longTasks: longTasks.length,
    lastToken: probe.endPaint - last,
    half: probe.halfFinishedFrames,
    rate: chunks.length / ((probe.endDom - sent[0]) / 1000),
    probe,
  };
}

/** Scrolls the message from top to bottom, one step a frame; returns the frame times' p99. */
async function scrollP99(t: Target): Promise<number> {
  await t.page.evaluate(async (sel) => {
    (document.querySelector(sel) as HTMLElement).scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, t.scroller);
  const w = await watchFrames(t.page);
  await t.page.evaluate(async (sel) => {
    const el = document.querySelector(sel) as HTMLElement;
    for (let i = 0; i < 240 && el.scrollTop + el.clientHeight < el.scrollHeight - 1; i++) {
      el.scrollTop += 600;
      await new Promise((r) => requestAnimationFrame(r));
    }
  }, t.scroller);
  const { frames } = await w.stop();
  return percentile(frames, 99);
}

type Samples = Record<Renderer, number[]>;
const samples = (): Samples => Object.fromEntries(RENDERERS.map((r) => [r, []])) as unknown as Samples;

/**
 * Markdown-heavy streaming, HubDesk (the built app, through main, the web transport and its renderer) against the
 * renderers peers use (streamdown, react-markdown + remark-gfm, marked + DOMPurify), all fed the same NDJSON
 * stream from the Ollama fixture, in the same Chromium, interleaved run by run.
 */
export async function markdown(ctx: BenchContext): Promise<Figure[]> {
  ctx.log('building the peer pages (vite)…');
  try {
    await buildPeers();
    return await measure(ctx);
  } finally {
    rmSync(peersOut, { recursive: true, force: true }); // built bundles: not for lint, not for git
  }
}

async function measure(ctx: BenchContext): Promise<Figure[]> {
  const fixture = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
  const srv = await startPeerServer(fixture.url);
  const browser = await launchChromium();
  const app = await startBenchApp(browser, { OLLAMA_HOST: fixture.url });
  await app.page.close();
  const secs = ctx.quick ? 3 : 10;
  const steady = markdownStream(1000 * secs).chunks;
  const burstN = ctx.quick ? 5_000 : 20_000;
  const burst = markdownStream(burstN, 2).chunks;
  const finished = markdownStream(20_000, 3).text;
  srv.finished = finished;
  const exp = syntheticExport(2, FINISHED_TITLE);
  exp.messages[1] = { ...exp.messages[1], content: finished };
  await app.client.call('chat.import', { text: JSON.stringify(exp) });

  const s = { p99: samples(), longs: samples(), last: samples(), half: samples(), burst: samples() };
  const open = samples();
  const scroll = samples();
  const target = (r: Renderer, forStream = true) =>
    r === HUB ? hubTarget(browser, app, forStream) : peerTarget(browser, srv, r);
  try {
    for (let run = 0; run < ctx.runs(3, 1); run++) {
      for (const r of RENDERERS) {
        let t = await target(r);
        const a = await streamOnce(t, fixture, steady, 1000);
        await t.page.close();
        const seen = Object.entries(a.probe.perMarker).map(([m, n]) => `${m}:${n}`);
        ctx.log(
          `${r}: 1000 tok/s p99 ${a.p99.toFixed(1)} ms, ${a.longTasks} long tasks, last token ${a.lastToken.toFixed(0)} ms, ` +
            `half-finished ${a.half}/${a.probe.sampledFrames} frames ${seen.join(' ')}`,
        );
        if (a.probe.longFrames.length) ctx.log(`${r}: long frames: ${describeLongFrames(a.probe.longFrames)}`);
        s.p99[r].push(a.p99);
        s.longs[r].push(a.longTasks);
        s.last[r].push(a.lastToken);
        s.half[r].push(a.half);

        t = await target(r);
        const b = await streamOnce(t, fixture, burst);
        await t.page.close();
        ctx.log(`${r}: burst ${Math.round(b.rate)} chunks/s`);
        s.burst[r].push(b.rate);

        // Cold open of the finished message, then scrolling it.
        t = await target(r, false);
        if (r === HUB) {
          await t.page.goto(`${new URL(app.url).origin}/#/chat`);
          await t.page.getByTestId('conv-item').filter({ hasText: FINISHED_TITLE }).waitFor();
        }
        await settle(t.page);
        await installProbe(t.page, t.selector, false);
        await markStart(
          t.page,
          r === HUB ? { clickIn: '[data-testid="conv-item"]', hasText: FINISHED_TITLE } : 'peer-open',
        );
        const p = await finishProbe(t.page, t.selector, t.done);
        open[r].push(p.endPaint - p.t0);
        scroll[r].push(await scrollP99(t));
        ctx.log(`${r}: cold open ${(p.endPaint - p.t0).toFixed(0)} ms, scroll p99 ${scroll[r].at(-1)!.toFixed(1)} ms`);
        await t.page.close();
      }
    }
  } finally {
    fixture.onChunk = undefined;
    await app.stop();
    await browser.close();
    await srv.stop();
    await fixture.stop();
  }
  const peersOf = (x: Samples) => Object.fromEntries(PEERS.map((p) => [p, x[p]]));
  const fig = (name: string, unit: string, x: Samples, target?: string, note?: string) =>
    peerFigure(name, unit, x[HUB], peersOf(x), { target, note });
  const at = `markdown 1000 tok/s, ${secs} s`;
  return [
    fig(`${at}: frame time p99`, 'ms', s.p99, '≤ 16.7 ms'),
    fig(`${at}: long tasks (>50 ms)`, 'count', s.longs, '0'),
    fig(`${at}: last token wire → painted`, 'ms', s.last, '≤ 50 ms'),
    fig(`${at}: frames showing raw markdown`, 'frames', s.half, '0', 'sampled after each paint'),
    fig(`markdown burst: ${burstN} chunks absorbed`, 'chunks/s', s.burst, '≥ best peer (ratio ≥ 1)'),
    fig('markdown 20k-token message: cold open → painted', 'ms', open, '≤ 300 ms'),
    fig('markdown 20k-token message: scroll frame p99', 'ms', scroll, '≤ 16.7 ms'),
  ];
}
