// The network-proxy figure's stand-ins in their own process, loaded like bench/index.mjs loads the bench.
import { resolve } from 'node:path';
import { createServer } from 'vite';

const root = resolve(import.meta.dirname, '..');
const server = await createServer({
  configFile: false,
  root,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, watch: null },
  resolve: { alias: { '@shared': resolve(root, 'shared') } },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const [dir, repo, file, size] = process.argv.slice(2);
const mod = await server.ssrLoadModule('/bench/lib/network-stack.ts');
await mod.run(dir, repo, file, Number(size));
await server.close();
