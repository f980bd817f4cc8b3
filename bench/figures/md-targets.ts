import type { Browser, Page } from 'playwright-core';
import type { OllamaFixture } from '../../tests/fixtures/ollama';
import { watchFrames, type BenchApp } from '../lib/app';
import { finishProbe, installProbe, settle, type ProbeResult } from '../lib/md-probe';
import { percentile } from '../lib/measure';
import type { PeerServer } from '../lib/peers';
import { openChat } from './streaming';

const now = () => performance.timeOrigin + performance.now();

/** How the bench drives one renderer: a fresh page for each run, where its message is, how a stream starts. */
export interface Target {
  page: Page;
  /** The message element (the last match). */
  selector: string;
  /** Present once the reply is complete. */
  done: string;
  /** The element that scrolls the message. */
  scroller: string;
  send(): Promise<void>;
}

export async function hubTarget(browser: Browser, app: BenchApp, forStream: boolean): Promise<Target> {
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

export async function peerTarget(browser: Browser, srv: PeerServer, peer: string): Promise<Target> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${srv.url}/${peer}/`);
  await page.waitForFunction(() => 'stream' in ((window as unknown as { __peer?: object }).__peer ?? {}));
  return peerControls(page);
}

function peerControls(page: Page): Target {
  return {
    page,
    selector: '#msg',
    done: '#msg[data-status="complete"]',
    scroller: '#scroll',
    send: () => page.evaluate(() => void (window as unknown as { __peer: { stream(): unknown } }).__peer.stream()),
  };
}

/**
 * The floor's page, on the peers' origin: the same column as the peers (bench/peers/shared/peer.css), and a
 * `__peer.stream()` that reads the same NDJSON stream and appends each frame's new text as a plain text node, no
 * markdown: what a frame costs here before any renderer does anything. Idle, it runs nothing but the frame watcher.
 */
export async function floorTarget(browser: Browser, srv: PeerServer): Promise<Target> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${srv.url}/floor`); // any path: a blank page of that origin
  await page.evaluate(() => {
    document.head.innerHTML =
      '<style>html,body{margin:0;font:15px/1.5 system-ui,sans-serif}#scroll{height:100vh;overflow:auto}' +
      '#msg{max-width:820px;margin:0 auto;padding:16px;white-space:pre-wrap}</style>';
    document.body.innerHTML = '<div id="scroll"><div id="msg"></div></div>';
    const el = document.getElementById('msg')!;
    let pending = '';
    let done = false;
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      el.append(pending);
      pending = '';
      if (done) el.dataset.status = 'complete';
    };
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(flush);
    };
    (window as unknown as { __peer: object }).__peer = {
      async stream() {
        el.dataset.status = 'streaming';
        const res = await fetch('/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'llama3.2:latest', messages: [{ role: 'user', content: 'x' }], stream: true }),
        });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          buf += value;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (line.trim()) pending += (JSON.parse(line) as { message?: { content?: string } }).message?.content ?? '';
          }
          schedule();
        }
        done = true;
        schedule();
      },
    };
  });
  return peerControls(page);
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

export interface StreamRun {
  p99: number;
  longTasks: number;
  /** Every frame interval while the reply streamed (ms), for counting dropped frames against the floor. */
  frames: number[];
  lastToken: number;
  half: number;
  rate: number;
  probe: ProbeResult;
}

export async function streamOnce(
  t: Target,
  fixture: OllamaFixture,
  chunks: string[],
  rate?: number,
): Promise<StreamRun> {
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
    frames,
    lastToken: probe.endPaint - last,
    half: probe.halfFinishedFrames,
    rate: chunks.length / ((probe.endDom - sent[0]) / 1000),
    probe,
  };
}

/** The floor with nothing to draw: `ms` of frames on a page running only the frame watcher. */
export async function idleFrames(t: Target, ms: number): Promise<{ frames: number[]; longTasks: number[] }> {
  await settle(t.page);
  const w = await watchFrames(t.page);
  await t.page.waitForTimeout(ms);
  return w.stop();
}

/**
 * Scrolls the message from top to bottom, 600 px a frame (240 frames at most); a message that ends sooner (a peer
 * that boxes its tables and code in scrollers of their own) is scrolled back and forth for 60 frames, so every
 * renderer gives a p99 of a comparable number of frames. Returns the frame times' p99.
 */
export async function scrollP99(t: Target): Promise<number> {
  await t.page.evaluate(async (sel) => {
    (document.querySelector(sel) as HTMLElement).scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, t.scroller);
  const w = await watchFrames(t.page);
  await t.page.evaluate(async (sel) => {
    const el = document.querySelector(sel) as HTMLElement;
    let step = 600;
    for (let i = 0; i < 240; i++) {
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) {
        if (i >= 60) break;
        step = -600;
      } else if (el.scrollTop <= 0) step = 600;
      el.scrollTop += step;
      await new Promise((r) => requestAnimationFrame(r));
    }
  }, t.scroller);
  const { frames } = await w.stop();
  return percentile(frames, 99);
}

/** Dropped frames per 10 s: frames longer than 1.5× the floor's median frame (a vsync missed), over their time. */
export function droppedPer10s(frames: number[], floorMedian: number): number {
  const total = frames.reduce((a, b) => a + b, 0);
  return total ? (frames.filter((f) => f > 1.5 * floorMedian).length * 10_000) / total : 0;
}
