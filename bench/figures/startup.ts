import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fixtureModel, startOllamaFixture } from '../../tests/fixtures/ollama';
import { seedOfflineSettings } from '../lib/app';
import { launchChromium, spawnServer } from '../lib/browser';
import { figure, type BenchContext, type Figure } from '../lib/measure';
import { readPresented, readStartup, watchStartup, type StartupSplit } from '../lib/startup-probe';

const root = process.cwd();
const rendererDir = join(root, 'out/renderer');

/** The web mode, spawned as a user launches it, on its own port and data dir. */
const spawnApp = (dataDir: string, env: Record<string, string> = {}) =>
  spawnServer([join(root, 'out/main/web.js'), '--port', '0', '--data-dir', dataDir], /^HubDesk web: (\S+)$/, env);

/** The JS the first page load fetches (entry + modulepreloads), and every other JS chunk (loaded lazily). */
function bundleSizes(): { initial: number; lazy: number; monaco: number; files: Record<string, number> } {
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

/**
 * The start-up floor: the app's own index.html as a static page, its landing marked as the first screen (as main does
 * for a returning user with the Hub off), without the app: no boot template (the app's script and preload tags) and no
 * catalogue preload. What drawing the landing costs this browser, whatever the app does.
 */
function staticLanding(): string {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const out = html
    .replace(/<template id="boot">[\s\S]*?<\/template>/, '')
    .replace(/<link rel="preload" href="\.\/catalogue\.json"[^>]*>/, '')
    .replace('<html lang="en">', '<html lang="en" data-first-screen>');
  if (
    out.includes('<template id="boot">') ||
    !out.includes('data-first-screen>') ||
    !out.includes('class="cat-groups"')
  )
    throw new Error('index.html has changed shape: the static landing could not be made from it');
  const file = join(root, 'bench/results/.landing.html');
  writeFileSync(file, out);
  return file;
}

/** Start-up: web mode from launch to the catalogue painted, against an empty page served by a bare Node server. */
export async function startup(ctx: BenchContext): Promise<Figure[]> {
  const browser = await launchChromium();
  const runs = ctx.runs(7, 3);
  // A returning user (past the first-run choice, offline): launch → the catalogue, with no network involved.
  const dataDir = join(root, 'bench/results/.data');
  seedOfflineSettings(dataDir);
  const landingFile = staticLanding();
  const app: number[] = [];
  const landing: number[] = [];
  const empty: number[] = [];
  const splits: StartupSplit[] = [];
  const emptyServer: number[] = [];
  const emptyHtml: number[] = [];
  const chat: number[] = [];
  const interactive: number[] = [];
  const opened = { now: [] as number[], later: [] as number[] };
  try {
    for (let i = 0; i < runs; i++) {
      for (const which of ['app', 'landing', 'empty'] as const) {
        const page = await browser.newPage();
        // Painted: the frame that shows the catalogue (the landing prerendered into index.html), or the empty page's
        // text, on screen; interactive: the app's own catalogue painted, React mounted.
        const { recorded } =
          which === 'app'
            ? await watchStartup(page, '.cat-groups', '[data-testid="task-groups"]')
            : await watchStartup(page, which === 'landing' ? '.cat-groups' : '#ready');
        const launched = performance.timeOrigin + performance.now();
        const t0 = performance.now();
        const srv =
          which === 'app'
            ? await spawnApp(dataDir)
            : await spawnServer(
                [join(root, 'bench/empty-server.mjs'), ...(which === 'landing' ? ['--page', landingFile] : [])],
                /^Empty page: (\S+)$/,
              );
        const serverMs = performance.now() - t0;
        await page.goto(srv.url);
        await recorded;
        if (which === 'app') {
          const s = await readStartup(page, serverMs, 'catalogue.json');
          splits.push(s);
          app.push(s.timeOrigin + s.presented - launched);
          interactive.push(s.timeOrigin + s.interactive - launched);
        } else {
          const { presented, timeOrigin } = await readPresented(page);
          (which === 'landing' ? landing : empty).push(timeOrigin + presented - launched);
        }
        if (which === 'empty') {
          emptyServer.push(serverMs);
          emptyHtml.push(await page.evaluate(() => performance.getEntriesByType('navigation')[0].toJSON().responseEnd));
        }
        await page.close();
        await srv.stop();
      }
    }
    chat.push(...(await chatReady(ctx, browser, dataDir, runs)));
    const o = await chatOpened(browser, dataDir, ctx.runs(5, 3));
    opened.now.push(...o.now);
    opened.later.push(...o.later);
  } finally {
    await browser.close();
  }
  const sizes = bundleSizes();
  const split = (k: keyof StartupSplit) => splits.map((x) => x[k]);
  return [
    figure('start-up: launch → catalogue painted', 'ms', app, {
      baseline: empty,
      target: 'ratio ≤ 1.5 (baseline: empty page, bare Node server)',
    }),
    figure('start-up floor: launch → the same landing painted as a static page (no app)', 'ms', landing, {
      baseline: empty,
      note: "index.html's landing from a bare Node server, without the app's code or data: what drawing it costs here",
    }),
    figure('start-up: launch → catalogue painted, against that static landing', 'ms', app, {
      baseline: landing,
      note: 'what the app adds to drawing its first screen',
    }),
    figure('start-up: launch → catalogue interactive (the app mounted)', 'ms', interactive, {
      baseline: empty,
      note: 'baseline: empty page, bare Node server',
    }),
    figure('start-up split: server start (spawn → listening)', 'ms', split('server'), {
      baseline: emptyServer,
      note: 'baseline: bare Node server',
    }),
    figure('start-up split: navigation → HTML received', 'ms', split('html'), {
      baseline: emptyHtml,
      note: 'baseline: empty page',
    }),
    figure('start-up split: HTML → initial JS received', 'ms', split('js')),
    figure('start-up split: JS parse/eval + mount → catalogue call sent', 'ms', split('evalToCall')),
    figure('start-up split: catalogue fetch (sent → received, preloaded)', 'ms', split('call')),
    figure('start-up split: catalogue payload (as sent)', 'KB', split('payloadKB'), {
      note: `${Math.round(split('decodedKB')[0] ?? 0)} KB decoded`,
    }),
    figure('start-up split: navigation → catalogue painted (on screen)', 'ms', split('presented'), {
      note: 'the landing prerendered into index.html; the later of its frame painted and first contentful paint',
    }),
    figure('start-up split: navigation → catalogue painted (main thread)', 'ms', split('painted'), {
      note: 'before raster and presentation',
    }),
    figure('start-up split: catalogue and JS received → the app painted', 'ms', split('render'), {
      note: 'JSON parse, store, first render, layout, paint',
    }),
    figure('start-up split: long tasks before interactive', 'count', split('longTasks')),
    figure('start-up split: long tasks before interactive, total', 'ms', split('longTaskMs')),
    figure('start-up: launch → chat ready (new chat, composer)', 'ms', chat, {
      baseline: empty,
      note: 'baseline: empty page, bare Node server',
    }),
    figure('first visit to Chat, 4 s after launch: click → its page shown', 'ms', opened.later, {
      baseline: opened.now,
      note: "baseline: the same click right after launch; the pages' code loads while the app is idle",
    }),
    figure('bundle: app chunk (initial JS, gzip)', 'KB', [sizes.initial / 1024], { target: '≤ 150 KB' }),
    figure('bundle: Monaco chunks (lazy, gzip)', 'KB', [sizes.monaco / 1024], {
      note: 'loaded when a snippet pane opens',
    }),
  ];
}

/**
 * A person's first visit to Chat: the click on its nav item → the chat page shown (its "New chat" button in the DOM,
 * timed in the page), right after the app has started and 4 s later, when the idle app has loaded the page's code.
 */
async function chatOpened(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  dataDir: string,
  runs: number,
): Promise<{ now: number[]; later: number[] }> {
  const out = { now: [] as number[], later: [] as number[] };
  for (let i = 0; i < runs; i++) {
    for (const when of ['now', 'later'] as const) {
      const page = await browser.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { __clicked?: number; __shown?: number };
        document.addEventListener('click', () => (w.__clicked ??= performance.now()), true);
        new MutationObserver(() => {
          if (w.__clicked && !w.__shown && document.querySelector('[data-testid="new-chat"]'))
            w.__shown = performance.now();
        }).observe(document, { subtree: true, childList: true });
      });
      const srv = await spawnApp(dataDir);
      try {
        await page.goto(srv.url);
        await page.getByTestId('task-groups').waitFor();
        if (when === 'later') await page.waitForTimeout(4000);
        await page.getByTestId('nav-chat').click();
        await page.getByTestId('new-chat').waitFor();
        out[when].push(
          await page.evaluate(() => {
            const w = window as unknown as { __clicked: number; __shown: number };
            return w.__shown - w.__clicked;
          }),
        );
      } finally {
        await page.close();
        await srv.stop();
      }
    }
  }
  return out;
}

/**
 * Launch → chat ready: the web mode started, the user goes to Chat and starts a new chat; ready when the composer is
 * shown (painted). Whether the app had put the focus in it is logged: the figure does not wait for focus.
 */
async function chatReady(
  ctx: BenchContext,
  browser: Awaited<ReturnType<typeof launchChromium>>,
  dataDir: string,
  runs: number,
): Promise<number[]> {
  const fixture = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
  const out: number[] = [];
  let focused = 0;
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      const t0 = performance.now();
      const srv = await spawnApp(dataDir, { OLLAMA_HOST: fixture.url });
      try {
        await page.goto(srv.url);
        await page.getByTestId('nav-chat').click();
        await page.getByTestId('new-chat').click();
        const composer = page.getByTestId('composer');
        await composer.waitFor();
        if (await composer.evaluate((el) => el === document.activeElement)) focused++;
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        out.push(performance.now() - t0);
      } finally {
        await page.close();
        await srv.stop();
      }
    }
  } finally {
    await fixture.stop();
  }
  ctx.log(`chat ready: the composer had the focus in ${focused} of ${runs} runs`);
  return out;
}
