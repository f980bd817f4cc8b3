import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createHandlers } from './handlers';
import { Router } from './router';
import { createServices } from './services';
import { defaultDataDir } from './services/data-dir';
import { startWebServer } from './web/server';

// `npm run web`: the same services and router, served to a browser on loopback.
interface Args {
  port?: number;
  dataDir?: string;
  open: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { open: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--open') args.open = true;
    else if (a.startsWith('--port')) {
      const p = Number(value());
      if (!Number.isInteger(p) || p < 0 || p > 65535) throw new Error('--port takes a number from 0 to 65535');
      args.port = p;
    } else if (a.startsWith('--data-dir')) args.dataDir = value();
    else throw new Error(`unknown option ${a} (known: --port N, --data-dir DIR, --open)`);
  }
  return args;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(cmd, [url], { detached: true, stdio: 'ignore' })
    .on('error', () => {})
    .unref();
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
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
