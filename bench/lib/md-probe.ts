import type { Page } from 'playwright-core';
import { END_MARKER, MARKDOWN_MARKERS } from '../../tests/fixtures/markdown-stream';

/** What the probe saw in the page (epoch ms, comparable with the fixture's send times). */
export interface ProbeResult {
  /** When the end marker was first in the message's DOM text (MutationObserver). */
  endDom: number;
  /** The first paint after that: the next animation frame, then a task queued from it (runs after the paint). */
  endPaint: number;
  /** `t0` set by `markStart` (cold open). */
  t0: number;
  /** Frames sampled after each paint whose text showed a marker the final text does not contain. */
  halfFinishedFrames: number;
  sampledFrames: number;
  /** Those frames, per marker. */
  perMarker: Record<string, number>;
  /** Frames over 50 ms while the probe ran (Long Animation Frames), with what took their time. */
  longFrames: LongFrame[];
}

/** A long animation frame: its length, its style/layout/paint part, and the scripts that ran in it. */
export interface LongFrame {
  ms: number;
  layoutMs: number;
  /** `<ms> <what called it> <function>`, longest first. */
  scripts: string[];
}

interface ProbeState {
  endDom: number;
  endPaint: number;
  t0: number;
  on: boolean;
  masks: number[];
  longFrames: LongFrame[];
}

/** The fields of a PerformanceLongAnimationFrameTiming the probe reads (not in TypeScript's DOM types yet). */
interface LoafEntry {
  duration: number;
  startTime: number;
  styleAndLayoutStart: number;
  scripts: { duration: number; invokerType: string; invoker: string; sourceFunctionName: string }[];
}

/** Each long frame: `107 ms (layout 2): 93 resolve-promise ReadableStreamDefaultReader.read.then; 13 …`. */
export function describeLongFrames(frames: LongFrame[]): string {
  return frames.map((f) => `${f.ms} ms (layout ${f.layoutMs}): ${f.scripts.join('; ') || 'no script'}`).join(' | ');
}

/**
 * Waits until the page has run no long task for `quietMs` (at most `maxMs`), so what a page still does after loading
 * (HubDesk's start-up, a peer's lazy chunks) is not counted as streaming. Every renderer waits the same way.
 */
export async function settle(page: Page, quietMs = 500, maxMs = 5000): Promise<void> {
  await page.evaluate(
    ({ quietMs, maxMs }) =>
      new Promise<void>((done) => {
        const start = performance.now();
        let lastEnd = start;
        const obs = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) lastEnd = Math.max(lastEnd, e.startTime + e.duration);
        });
        obs.observe({ type: 'longtask', buffered: true });
        const check = () => {
          const now = performance.now();
          if (now - lastEnd >= quietMs || now - start >= maxMs) {
            obs.disconnect();
            done();
          } else setTimeout(check, 50);
        };
        setTimeout(check, quietMs);
      }),
    { quietMs, maxMs },
  );
}

/**
 * Watches the last element matching `selector` (the message being rendered): when the end marker reaches its DOM
 * and is painted, and, with `sample`, which raw-markdown markers its text shows after each paint. Every renderer
 * (HubDesk and each peer) is watched by this same code, so its own cost weighs on all of them alike.
 */
export async function installProbe(page: Page, selector: string, sample: boolean): Promise<void> {
  await page.evaluate(
    ({ selector, end, markers, sample }) => {
      const now = () => performance.timeOrigin + performance.now();
      const st: ProbeState = { endDom: 0, endPaint: 0, t0: 0, on: true, masks: [], longFrames: [] };
      (window as unknown as { __md: ProbeState }).__md = st;
      new PerformanceObserver((list) => {
        if (!st.on) return;
        for (const e of list.getEntries() as unknown as LoafEntry[])
          st.longFrames.push({
            ms: Math.round(e.duration),
            layoutMs: Math.round(e.startTime + e.duration - (e.styleAndLayoutStart || e.startTime + e.duration)),
            scripts: [...e.scripts]
              .sort((a, b) => b.duration - a.duration)
              .map((x) => `${Math.round(x.duration)} ${x.invokerType} ${x.invoker} ${x.sourceFunctionName}`.trim()),
          });
      }).observe({ type: 'long-animation-frame' });
      const textOf = () => {
        const all = document.querySelectorAll(selector);
        return all.length ? (all[all.length - 1].textContent ?? '') : null;
      };
      // The frame's callbacks, then style/layout/paint, then the next task: a message posted from rAF lands after paint.
      const afterPaint = (fn: () => void) =>
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => fn();
          ch.port2.postMessage(0);
        });
      const mo = new MutationObserver(() => {
        const t = textOf();
        if (t === null || !t.includes(end)) return;
        st.endDom = now();
        mo.disconnect();
        afterPaint(() => (st.endPaint = now()));
      });
      mo.observe(document.body, { subtree: true, childList: true, characterData: true });
      if (!sample) return;
      const tick = () => {
        if (!st.on) return;
        const t = textOf();
        if (t !== null) {
          let mask = 0;
          markers.forEach((m, i) => {
            if (t.includes(m)) mask |= 1 << i;
          });
          st.masks.push(mask);
        }
        afterPaint(tick);
      };
      afterPaint(tick);
    },
    { selector, end: END_MARKER.trim(), markers: [...MARKDOWN_MARKERS], sample },
  );
}

/**
 * Stamps the start of a cold open in the page's clock, then in the same task either clicks the first button inside
 * the element matching `clickIn` whose text has `hasText` (HubDesk's conversation list), or opens a peer's message.
 */
export async function markStart(page: Page, how: { clickIn: string; hasText: string } | 'peer-open'): Promise<void> {
  await page.evaluate((how) => {
    (window as unknown as { __md: ProbeState }).__md.t0 = performance.timeOrigin + performance.now();
    if (how === 'peer-open') {
      void (window as unknown as { __peer: { open(): Promise<void> } }).__peer.open();
      return;
    }
    const el = [...document.querySelectorAll(how.clickIn)].find((e) => e.textContent?.includes(how.hasText));
    if (!el) throw new Error(`nothing to click: ${how.clickIn} with ${how.hasText}`);
    el.querySelector('button')!.click();
  }, how);
}

/** Waits for the end marker painted and `doneSelector` present, then two more frames; stops sampling. */
export async function finishProbe(page: Page, selector: string, doneSelector: string): Promise<ProbeResult> {
  try {
    await page.waitForFunction(() => (window as unknown as { __md: ProbeState }).__md.endPaint > 0, undefined, {
      timeout: 120_000,
      polling: 50,
    });
  } catch (e) {
    // Say what the page showed instead, and keep a picture of it.
    const shot = 'bench/results/markdown-timeout.png';
    await page.screenshot({ path: shot }).catch(() => undefined);
    const tail = await page
      .evaluate(
        (sel) => [...document.querySelectorAll(sel)].at(-1)?.textContent?.slice(-300) ?? '(no message)',
        selector,
      )
      .catch(() => '(page gone)');
    throw new Error(`the end of the reply never showed in ${selector} (see ${shot}); it ends with: ${tail}`, {
      cause: e,
    });
  }
  await page.waitForSelector(doneSelector, { state: 'attached', timeout: 180_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const { st, finalMask } = await page.evaluate(
    ({ selector, markers }) => {
      const st = (window as unknown as { __md: ProbeState }).__md;
      st.on = false;
      const all = document.querySelectorAll(selector);
      const t = all.length ? (all[all.length - 1].textContent ?? '') : '';
      let finalMask = 0;
      markers.forEach((m, i) => {
        if (t.includes(m)) finalMask |= 1 << i;
      });
      return { st, finalMask };
    },
    { selector, markers: [...MARKDOWN_MARKERS] },
  );
  const perMarker: Record<string, number> = {};
  let half = 0;
  for (const mask of st.masks) {
    const raw = mask & ~finalMask; // markers the final render does not show
    if (raw) half++;
    MARKDOWN_MARKERS.forEach((m, i) => {
      if (raw & (1 << i)) perMarker[m] = (perMarker[m] ?? 0) + 1;
    });
  }
  return {
    endDom: st.endDom,
    endPaint: st.endPaint,
    t0: st.t0,
    halfFinishedFrames: half,
    sampledFrames: st.masks.length,
    perMarker,
    longFrames: st.longFrames,
  };
}
