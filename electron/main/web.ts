import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createHandlers } from './handlers';
import { Router } from './router';
import { createServices } from './services';
import { defaultDataDir } from './services/data-dir';
import { launchFile, parseWebArgs, type WebArgs } from './web/args';
import { startWebServer } from './web/server';

// `npm run web`: the same services and router, served to a browser on loopback.

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
  const services = createServices({ dataDir, mode: 'web', version: process.env.npm_package_version ?? '0.1.0' });
  const router = new Router(createHandlers(services), services.log);
  const server = await startWebServer({
    router,
    log: services.log,
    staticDir: join(__dirname, '../renderer'),
    port: args.port,
  });
  process.stdout.write(`HubDesk web: ${server.url}\n`);
  if (args.open) openBrowser(server.url);
  // The catalogue is the first screen: build it (offline, no network) while the browser loads the page.
  setImmediate(() => services.catalogue.get());
  const stop = () => void Promise.all([services.dispose(), server.close()]).finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
