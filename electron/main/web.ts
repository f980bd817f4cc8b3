import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { defaultDataDir, settingsFile } from './services/data-dir';
import { nodeHost } from './services/local/host/spawn-node';
import { landingIsFirstScreen } from './services/first-screen';
import type { Logger } from './services/log';
import { hubEndpointIn } from './services/settings';
import { launchFile, parseWebArgs, type WebArgs } from './web/args';
import { lazyRouter } from './web/lazy-router';
import { startWebServer } from './web/server';

// `npm run web`: the same services and router, served to a browser on loopback.
// Start-up: the server listens and prints its URL first; the services (and their heavy libraries) are evaluated
// from a separate chunk right after, while the browser is still loading the page.

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(cmd, [launchFile(url)], { detached: true, stdio: 'ignore' })
    .on('error', () => {})
    .unref();
}

async function main(): Promise<void> {
  let args: WebArgs;
  try {
    args = parseWebArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`hubdesk web: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const dataDir = args.dataDir ?? defaultDataDir();
  // Loaded when the page's scripts are sent (the browser then parses them while main evaluates the services'
  // chunk), or at the first call if that comes sooner (no renderer, or a client of the API alone).
  let started = false;
  let go!: () => void;
  const startBoot = () => ((started = true), go());
  const booted = new Promise<void>((ok) => (go = ok)).then(async () =>
    (await import('./web/boot')).bootWeb({
      dataDir,
      mode: 'web',
      version: process.env.npm_package_version ?? '0.1.0',
      // The engine host's entry sits beside this one (the services are in a chunk of their own, elsewhere).
      // A server left on starts again (or says why it cannot); its key comes back only from HUBDESK_LOCAL_SERVER_KEY.
      local: { serve: true, spawnEngine: nodeHost(join(__dirname, 'engine-host.js')) },
      // So does the documents' extraction worker.
      documents: { extract: { entry: join(__dirname, 'extract-worker.js') } },
    }),
  );
  booted.catch((e: unknown) => {
    process.stderr.write(`hubdesk web: could not start: ${(e as Error).message}\n`);
    process.exit(1);
  });
  const later =
    (level: keyof Logger): Logger[keyof Logger] =>
    (msg, data) =>
      void booted.then((b) => b.services.log[level](msg, data));
  const log: Logger = { debug: later('debug'), info: later('info'), warn: later('warn'), error: later('error') };
  const server = await startWebServer({
    router: lazyRouter(() => (startBoot(), booted.then((b) => b.router))),
    onPageServed: () => setImmediate(startBoot),
    log,
    staticDir: join(__dirname, '../renderer'),
    landingFirst: () => landingIsFirstScreen(settingsFile(dataDir)),
    hubEndpoint: () => hubEndpointIn(settingsFile(dataDir), process.env),
    port: args.port,
  });
  process.stdout.write(`HubDesk web: ${server.url}\n`);
  if (args.open) openBrowser(server.url);
  const stop = () =>
    void Promise.all([started ? booted.then((b) => b.services.dispose()) : undefined, server.close()]).finally(() =>
      process.exit(0),
    );
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
