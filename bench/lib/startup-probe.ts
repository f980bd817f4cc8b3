import type { Page } from 'playwright-core';

/** Where the time of one launch went, in ms (page times are from the page's navigation start). */
export interface StartupSplit {
  /** Spawn → the server prints its URL (Node clock). */
  server: number;
  /** Navigation start → the HTML's last byte. */
  html: number;
  /** HTML received → the last script of the first load received. */
  js: number;
  /** Last script received → the catalogue call sent: parsing and evaluating the JS, the first mount. */
  evalToCall: number;
  /** The catalogue call, sent → its last byte. */
  call: number;
  /** Its payload as sent (compressed if it was) and decoded, KB. */
  payloadKB: number;
  decodedKB: number;
  /** Catalogue and JS received → the app's own catalogue painted: JSON parse, store update, first render, paint. */
  render: number;
  /** Navigation start → the main thread's paint of the first frame showing `selector` (the landing, or the app's). */
  painted: number;
  /** Navigation start → that frame on screen (see watchStartup). */
  presented: number;
  /** Navigation start → the app's own catalogue painted (`interactive` selector): React has mounted. */
  interactive: number;
  /** The page's clock origin (epoch ms), to set its times beside the bench's own clock. */
  timeOrigin: number;
  /** Long tasks (> 50 ms) before the catalogue was painted: how many, and their total. */
  longTasks: number;
  longTaskMs: number;
}

/** What the page prints once everything below is recorded (see watchStartup). */
const STARTUP_DONE = 'hubdesk-bench: start-up recorded';

/**
 * Installed before any of the page's own scripts (addInitScript): records long tasks; when `selector` (and
 * `interactive`) first appear, the time of the paint that shows it (a task queued from the next animation frame runs
 * after the main thread's paint); and the first contentful paint, which the browser times when the frame is on screen
 * (rasterised and presented: with much text, tens of ms after the main thread's paint). `selector` is on screen at
 * the later of the two (the first paint with content is its frame, or an earlier one).
 *
 * Returns a promise of that record being complete, in an object (an async function cannot return a pending promise).
 * The page says so on its console, so nothing is evaluated in it before: Playwright's first evaluation injects ~330 KB
 * of script, which delayed the landing's frame by ~20 ms.
 */
export async function watchStartup(
  page: Page,
  selector: string,
  interactive = selector,
): Promise<{ recorded: Promise<void> }> {
  const done = page.waitForEvent('console', { predicate: (m) => m.text() === STARTUP_DONE, timeout: 30_000 });
  await page.addInitScript(
    ({ selector, interactive, doneText }) => {
      const st = {
        longTasks: [] as { start: number; duration: number }[],
        painted: 0,
        interactive: 0,
        fcp: 0,
        presented: 0,
      };
      (window as unknown as { __startup: typeof st }).__startup = st;
      let said = false;
      const check = () => {
        if (said || !(st.painted > 0 && st.interactive > 0 && st.fcp > 0)) return;
        said = true;
        st.presented = Math.max(st.painted, st.fcp);
        console.debug(doneText);
      };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) st.longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
      new PerformanceObserver((list) => {
        const fcp = list.getEntriesByName('first-contentful-paint')[0];
        if (!fcp) return;
        st.fcp = fcp.startTime;
        check();
      }).observe({ type: 'paint', buffered: true });
      const whenPainted = (sel: string, done: (t: number) => void) => {
        const mo = new MutationObserver(() => {
          if (!document.querySelector(sel)) return;
          mo.disconnect();
          requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => {
              done(performance.now());
              check();
            };
            ch.port2.postMessage(0);
          });
        });
        mo.observe(document, { subtree: true, childList: true });
      };
      whenPainted(selector, (t) => (st.painted = t));
      whenPainted(interactive, (t) => (st.interactive = t));
    },
    { selector, interactive, doneText: STARTUP_DONE },
  );
  return { recorded: done.then(() => undefined) };
}

/** Navigation start → `selector` on screen (see watchStartup). Call once watchStartup's `recorded` has resolved. */
export async function readPresented(page: Page): Promise<{ presented: number; timeOrigin: number }> {
  return page.evaluate(() => ({
    presented: (window as unknown as { __startup: { presented: number } }).__startup.presented,
    timeOrigin: performance.timeOrigin,
  }));
}

/** Reads the split from the Performance API: call once watchStartup's `recorded` has resolved. */
export async function readStartup(page: Page, serverMs: number, callName: string): Promise<StartupSplit> {
  const s = await page.evaluate((callName) => {
    const st = (
      window as unknown as {
        __startup: {
          longTasks: { start: number; duration: number }[];
          painted: number;
          interactive: number;
          presented: number;
        };
      }
    ).__startup;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const call = res.find((r) => r.name.includes(callName));
    if (!call) throw new Error(`no ${callName} request in the resource timings`);
    // The scripts of the first load: every .js requested before the catalogue arrived (the catalogue may be
    // preloaded with the HTML, before any script: then no time goes between the JS and the call).
    const scripts = res.filter((r) => /\.js(\?|$)/.test(r.name) && r.startTime < call.responseEnd);
    const jsEnd = Math.max(nav.responseEnd, ...scripts.map((r) => r.responseEnd));
    const before = st.longTasks.filter((t) => t.start < st.interactive);
    return {
      html: nav.responseEnd,
      js: jsEnd - nav.responseEnd,
      evalToCall: Math.max(0, call.startTime - jsEnd),
      call: call.responseEnd - call.startTime,
      payloadKB: call.encodedBodySize / 1024,
      decodedKB: call.decodedBodySize / 1024,
      render: st.interactive - Math.max(call.responseEnd, jsEnd),
      painted: st.painted,
      presented: st.presented,
      interactive: st.interactive,
      timeOrigin: performance.timeOrigin,
      longTasks: before.length,
      longTaskMs: before.reduce((a, t) => a + t.duration, 0),
    };
  }, callName);
  return { server: serverMs, ...s };
}
