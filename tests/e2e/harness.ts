import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { tempDir } from '../helpers/app';

const root = resolve(import.meta.dirname, '../..');
export const screenshotDir = join(root, 'test-results', 'screenshots');

export function chromiumPath(): string {
  const p = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(p))
    throw new Error(`No Chromium at ${p}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  return p;
}

export interface WebApp {
  url: string;
  origin: string;
  secret: string;
  dataDir: string;
  proc: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

export interface WebAppOptions {
  env?: Record<string, string>;
  dataDir?: string;
  /** Start as a new user would, on the first-run screen; otherwise a data dir without settings is seeded offline. */
  firstRun?: boolean;
  /** A fixed `--port` (a restart on the same address); otherwise any free one. */
  port?: number;
}

/** Runs `node out/main/web.js` as `npm run web` does, and waits for its `HubDesk web: <url>` line. */
export async function startWebApp(opts: WebAppOptions = {}): Promise<WebApp> {
  const entry = join(root, 'out/main/web.js');
  if (!existsSync(entry)) throw new Error('out/main/web.js is missing: run `npm run build` first.');
  const dir = opts.dataDir ? undefined : tempDir('hubdesk-e2e-');
  const dataDir = opts.dataDir ?? dir!.path;
  const settingsFile = join(dataDir, 'settings.json');
  if (!opts.firstRun && !existsSync(settingsFile)) {
    // Suites about other screens skip the first-run choice; the offline answer sends nothing anywhere.
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(settingsFile, JSON.stringify({ version: 1, values: { hubAccess: 'offline' } }));
  }
  const proc = spawn(process.execPath, [entry, '--port', String(opts.port ?? 0), '--data-dir', dataDir], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  proc.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`web mode did not start:\n${output.join('')}`)), 15_000);
    proc.once('exit', (code) => fail(new Error(`web mode exited with ${code}:\n${output.join('')}`)));
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      output.push(line);
      const m = /^HubDesk web: (\S+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    secret: new URLSearchParams(parsed.hash.slice(1)).get('token') ?? '',
    dataDir,
    proc,
    output,
    stop: async () => {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      dir?.remove();
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Saves a full-window screenshot under test-results/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * The font (family and size) of a code element and of the block it sits in: code follows the app's style, not the
 * browser's own generic monospace at its fixed 13px.
 */
export function codeFont(code: Locator): Promise<{ code: string; block: string }> {
  return code.evaluate((c) => {
    const font = (e: Element) => `${getComputedStyle(e).fontFamily} ${getComputedStyle(e).fontSize}`;
    return { code: font(c), block: font(c.closest('pre') ?? c.parentElement!) };
  });
}

/** Collects uncaught page errors and console errors: a test fails on any it did not expect. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** The usual start of an e2e suite: the web mode, Chromium, one page on the app (errors watched). */
export async function openApp(opts: WebAppOptions = {}): Promise<{
  app: WebApp;
  browser: Browser;
  page: Page;
  errors: string[];
}> {
  const app = await startWebApp(opts);
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = watchErrors(page);
  await page.goto(app.url);
  return { app, browser, page, errors };
}
