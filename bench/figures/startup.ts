import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { seedOfflineSettings } from '../lib/app';
import { launchChromium, spawnServer } from '../lib/browser';
import { figure, type BenchContext, type Figure } from '../lib/measure';

const root = process.cwd();
const rendererDir = join(root, 'out/renderer');

/** The JS the first page load fetches (entry + modulepreloads), and every other JS chunk (loaded lazily). */
export function bundleSizes(): { initial: number; lazy: number; monaco: number; files: Record<string, number> } {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const initialFiles = new Set([...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  const files: Record<string, number> = {};
  let initial = 0;
  let lazy = 0;
  let monaco = 0;
  for (const f of readdirSync(join(rendererDir, 'assets'))) {
    if (!f.endsWith('.js')) continue;
    const gz = gzipSync(readFileSync(join(rendererDir, 'assets', f)), { level: 9 }).length;
    files[f] = gz;
    if (initialFiles.has(`assets/${f}`)) initial += gz;
    else {
      lazy += gz;
      if (/monaco|editor|worker/i.test(f)) monaco += gz;
    }
  }
  return { initial, lazy, monaco, files };
}

/** Start-up: web mode from launch to the catalogue painted, against an empty page served by a bare Node server. */
export async function startup(ctx: BenchContext): Promise<Figure[]> {
  const browser = await launchChromium();
  const runs = ctx.runs(7, 3);
  const app: number[] = [];
  const empty: number[] = [];
  seedOfflineSettings(join(root, 'bench/results/.data'));
  try {
    for (let i = 0; i < runs; i++) {
      for (const which of ['app', 'empty'] as const) {
        const page = await browser.newPage();
        const t0 = performance.now();
        const srv =
          which === 'app'
            ? await spawnServer(
                [join(root, 'out/main/web.js'), '--port', '0', '--data-dir', join(root, 'bench/results/.data')],
                /^HubDesk web: (\S+)$/,
              )
            : await spawnServer([join(root, 'bench/empty-server.mjs')], /^Empty page: (\S+)$/);
        await page.goto(srv.url);
        await page.waitForSelector(which === 'app' ? '[data-testid="task-groups"]' : '#ready');
        // Painted: two animation frames after the content is in the DOM.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        (which === 'app' ? app : empty).push(performance.now() - t0);
        await page.close();
        await srv.stop();
      }
    }
  } finally {
    await browser.close();
  }
  const sizes = bundleSizes();
  return [
    figure('start-up: launch → catalogue painted', 'ms', app, {
      baseline: empty,
      target: 'ratio ≤ 2 (baseline: empty page, bare Node server)',
    }),
    figure('bundle: app chunk (initial JS, gzip)', 'KB', [sizes.initial / 1024], { target: '≤ 150 KB' }),
    figure('bundle: Monaco chunks (lazy, gzip)', 'KB', [sizes.monaco / 1024], {
      note: 'loaded when a snippet pane opens',
    }),
  ];
}
