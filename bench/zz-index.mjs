// Runs bench/run.ts through Vite's SSR module loader, so the app's modules load exactly as they are built
// (the @shared alias, import.meta.glob'd templates) without a separate build of the benchmark.
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
let code = 0;
try {
  const mod = await server.ssrLoadModule('/bench/zz-shot.ts');
  await mod.main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`bench failed: ${e?.stack ?? e}\n`);
  code = 1;
} finally {
  await server.close();
}
process.exit(code);
