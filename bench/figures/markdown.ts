import { rmSync } from 'node:fs';
import { syntheticExport } from '../../tests/fixtures/conversation';
import { markdownStream, tableCodeStream } from '../../tests/fixtures/markdown-stream';
import { fixtureModel, startOllamaFixture, type OllamaFixture } from '../../tests/fixtures/ollama';
import { startBenchApp } from '../lib/app';
import { launchChromium } from '../lib/browser';
import { describeLongFrames, finishProbe, installProbe, markStart, settle } from '../lib/md-probe';
import { figure, median, percentile, peerFigure, type BenchContext, type Figure } from '../lib/measure';
import { buildPeers, PEERS, peersOut, startPeerServer } from '../lib/peers';
import {
  droppedPer10s,
  floorTarget,
  hubTarget,
  idleFrames,
  peerTarget,
  scrollP99,
  streamOnce,
  type StreamRun,
  type Target,
} from './md-targets';

const HUB = 'HubDesk';
/** The frame clock's floor: a page drawing nothing (rAF only), and one appending the same stream as plain text. */
const IDLE = 'floor: rAF only';
const PLAIN = 'floor: plain text';
type Renderer = typeof HUB | (typeof PEERS)[number];
type Who = Renderer | typeof IDLE | typeof PLAIN;
const RENDERERS: Renderer[] = [HUB, ...PEERS];
const FINISHED_TITLE = 'Bench markdown-heavy reply';

type Samples = Record<Who, number[]>;
const samples = (): Samples =>
  Object.fromEntries([IDLE, PLAIN, ...RENDERERS].map((r) => [r, []])) as unknown as Samples;

/** What one stream's runs gathered, per renderer (the floors too). */
interface StreamSamples {
  p99: Samples;
  longs: Samples;
  /** Each run's frame intervals, counted against the floor's vsync once every run is in. */
  frames: Record<Who, number[][]>;
  last: Samples;
  half: Samples;
  scroll: Samples;
}
const streamSamples = (): StreamSamples => ({
  p99: samples(),
  longs: samples(),
  frames: Object.fromEntries([IDLE, PLAIN, ...RENDERERS].map((r) => [r, []])) as unknown as StreamSamples['frames'],
  last: samples(),
  half: samples(),
  scroll: samples(),
});

function record(s: StreamSamples, who: Who, run: Pick<StreamRun, 'p99' | 'longTasks' | 'frames'>): void {
  s.p99[who].push(run.p99);
  s.longs[who].push(run.longTasks);
  s.frames[who].push(run.frames);
}

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

/** One stream at 1000 tok/s on `t`, logged with its long frames; the page stays open (for scrolling). */
async function streamRun(
  ctx: BenchContext,
  t: Target,
  fixture: OllamaFixture,
  chunks: string[],
  label: string,
): Promise<StreamRun> {
  const a = await streamOnce(t, fixture, chunks, 1000);
  const seen = Object.entries(a.probe.perMarker).map(([m, n]) => `${m}:${n}`);
  ctx.log(
    `${label}: 1000 tok/s p99 ${a.p99.toFixed(1)} ms, ${a.longTasks} long tasks, last token ${a.lastToken.toFixed(0)} ms, ` +
      `half-finished ${a.half}/${a.probe.sampledFrames} frames ${seen.join(' ')}`,
  );
  if (a.probe.longFrames.length) ctx.log(`${label}: long frames: ${describeLongFrames(a.probe.longFrames)}`);
  return a;
}

async function measure(ctx: BenchContext): Promise<Figure[]> {
  const fixture = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
  const srv = await startPeerServer(fixture.url);
  const browser = await launchChromium();
  const app = await startBenchApp(browser, { OLLAMA_HOST: fixture.url });
  await app.page.close();
  const secs = ctx.quick ? 3 : 10;
  const steady = markdownStream(1000 * secs).chunks;
  const tables = tableCodeStream(1000 * secs, 4).chunks;
  const burstN = ctx.quick ? 5_000 : 20_000;
  const burst = markdownStream(burstN, 2).chunks;
  const finished = markdownStream(20_000, 3).text;
  srv.finished = finished;
  const exp = syntheticExport(2, FINISHED_TITLE);
  exp.messages[1] = { ...exp.messages[1], content: finished };
  await app.client.call('chat.import', { text: JSON.stringify(exp) });

  const md = streamSamples();
  const tc = streamSamples();
  const idle: number[][] = [];
  const burstRate = samples();
  const open = samples();
  const target = (r: Renderer | typeof PLAIN, forStream = true): Promise<Target> =>
    r === PLAIN
      ? floorTarget(browser, srv)
      : r === HUB
        ? hubTarget(browser, app, forStream)
        : peerTarget(browser, srv, r);
  try {
    for (let run = 0; run < ctx.runs(5, 1); run++) {
      let t = await floorTarget(browser, srv);
      const still = await idleFrames(t, secs * 1000);
      await t.page.close();
      idle.push(still.frames);
      const p99 = percentile(still.frames, 99);
      for (const s of [md, tc]) record(s, IDLE, { p99, longTasks: still.longTasks.length, frames: still.frames });
      ctx.log(`${IDLE}: p99 ${p99.toFixed(1)} ms, median ${median(still.frames).toFixed(2)} ms`);

      for (const r of [PLAIN, ...RENDERERS] as const) {
        t = await target(r);
        const a = await streamRun(ctx, t, fixture, steady, r);
        await t.page.close();
        record(md, r, a);
        md.last[r].push(a.lastToken);
        md.half[r].push(a.half);

        // The table-and-code stream, then scrolling its finished message on the same page.
        t = await target(r);
        const c = await streamRun(ctx, t, fixture, tables, `${r} tables+code`);
        record(tc, r, c);
        tc.last[r].push(c.lastToken);
        tc.half[r].push(c.half);
        tc.scroll[r].push(await scrollP99(t));
        ctx.log(`${r} tables+code: scroll p99 ${tc.scroll[r].at(-1)!.toFixed(1)} ms`);
        await t.page.close();
        if (r === PLAIN) continue;

        t = await target(r);
        const b = await streamOnce(t, fixture, burst);
        await t.page.close();
        ctx.log(`${r}: burst ${Math.round(b.rate)} chunks/s`);
        burstRate[r].push(b.rate);

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
        md.scroll[r].push(await scrollP99(t));
        ctx.log(
          `${r}: cold open ${(p.endPaint - p.t0).toFixed(0)} ms, scroll p99 ${md.scroll[r].at(-1)!.toFixed(1)} ms`,
        );
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
  return figures(secs, burstN, md, tc, idle, burstRate, open);
}

function figures(
  secs: number,
  burstN: number,
  md: StreamSamples,
  tc: StreamSamples,
  idle: number[][],
  burstRate: Samples,
  open: Samples,
): Figure[] {
  // One vsync here: the median frame of the idle floor; a frame past 1.5 of it missed one.
  const vsync = median(idle.map((f) => median(f)));
  const dropped = (s: StreamSamples): Samples =>
    Object.fromEntries(
      Object.entries(s.frames).map(([who, runs]) => [who, runs.map((f) => droppedPer10s(f, vsync))]),
    ) as Samples;
  const pick = (x: Samples, who: Who[]) => Object.fromEntries(who.map((p) => [p, x[p]]));
  const fig = (name: string, unit: string, x: Samples, who: Who[], target?: string, note?: string) =>
    peerFigure(name, unit, x[HUB], pick(x, who), { target, note });
  const withFloors: Who[] = [...PEERS, IDLE, PLAIN];
  const perStream = (s: StreamSamples, at: string, scrollName: string, scrollWho: Who[]) => [
    figure(`${at}: HubDesk frame p99 against the floor (rAF only)`, 'ms', s.p99[HUB], {
      baseline: s.p99[IDLE],
      target: 'ratio 1.00: one vsync',
    }),
    fig(`${at}: frame time p99`, 'ms', s.p99, withFloors, '≤ 16.7 ms'),
    fig(`${at}: long tasks (>50 ms)`, 'count', s.longs, withFloors, '0'),
    fig(`${at}: dropped frames per 10 s`, 'frames', dropped(s), withFloors, '0', `> 1.5 × ${vsync.toFixed(2)} ms`),
    fig(`${at}: last token wire → painted`, 'ms', s.last, [...PEERS, PLAIN], '≤ 50 ms'),
    fig(`${at}: frames showing raw markdown`, 'frames', s.half, [...PEERS], '0', 'sampled after each paint'),
    fig(scrollName, 'ms', s.scroll, scrollWho, '≤ 16.8 ms'),
  ];
  const at = `markdown 1000 tok/s, ${secs} s`;
  return [
    figure(`frame clock floor (rAF only page, ${secs} s): frame p99`, 'ms', md.p99[IDLE], {
      note: `median frame ${vsync.toFixed(2)} ms (one vsync); the lowest a frame p99 reads here`,
    }),
    ...perStream(md, at, 'markdown 20k-token message: scroll frame p99', [...PEERS]),
    fig(`markdown burst: ${burstN} chunks absorbed`, 'chunks/s', burstRate, [...PEERS], '≥ best peer (ratio ≥ 1)'),
    fig('markdown 20k-token message: cold open → painted', 'ms', open, [...PEERS], '≤ 300 ms'),
    ...perStream(
      tc,
      `tables+code 1000 tok/s, ${secs} s`,
      `tables+code ${secs * 1000}-token message: scroll frame p99`,
      [...PEERS, PLAIN],
    ),
  ];
}
