import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createClient, type HubDeskClient } from '@shared/client';
import { webTransport } from '../../renderer/src/transport/web';
import { spawnServer } from './browser';

export interface BenchApp {
  url: string;
  client: HubDeskClient;
  page: Page;
  stop(): Promise<void>;
}

/** Settings of a user who chose "Stay offline" on the first-run screen: the benchmarks measure the app, not the choice. */
export function seedOfflineSettings(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, values: { hubAccess: 'offline' } }));
}

/** The built web mode (`out/main/web.js`) on a fresh data dir, a typed client to it, and a Chromium page on it. */
export async function startBenchApp(browser: Browser, env: Record<string, string>): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-'));
  seedOfflineSettings(dataDir);
  const srv = await spawnServer(
    [join(process.cwd(), 'out/main/web.js'), '--port', '0', '--data-dir', dataDir],
    /^HubDesk web: (\S+)$/,
    env,
  );
  const url = new URL(srv.url);
  const secret = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(srv.url);
  return {
    url: srv.url,
    client: createClient(webTransport(url.origin, secret)),
    page,
    stop: async () => {
      await page.close();
      await srv.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts collecting frame intervals (rAF) and long tasks in the page; `stop` returns them. */
export async function watchFrames(page: Page): Promise<{ stop(): Promise<{ frames: number[]; longTasks: number[] }> }> {
  await page.evaluate(() => {
    const w = window as unknown as { __bench: { frames: number[]; longTasks: number[]; on: boolean } };
    w.__bench = { frames: [], longTasks: [], on: true };
    let last = performance.now();
    const tick = (t: number) => {
      if (!w.__bench.on) return;
      w.__bench.frames.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame((t) => {
      last = t;
      requestAnimationFrame(tick);
    });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  return {
    stop: () =>
      page.evaluate(() => {
        const w = window as unknown as { __bench: { frames: number[]; longTasks: number[]; on: boolean } };
        w.__bench.on = false;
        return { frames: w.__bench.frames, longTasks: w.__bench.longTasks };
      }),
  };
}
