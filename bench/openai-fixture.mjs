// The OpenAI-compatible server of the endpoint figures (tests/fixtures/openai-server.ts as llama-server), in its own
// Node process as a real llama-server is, so its sending does not share an event loop with the client measured.
// `node bench/openai-fixture.mjs <tokens> <chunk interval ms>`: every chat reply is `<tokens>` tokens " w0 w1 …".
import { resolve } from 'node:path';
import { createServer } from 'vite';

const [tokens, intervalMs] = process.argv.slice(2).map(Number);
const root = resolve(import.meta.dirname, '..');
const vite = await createServer({
  configFile: false,
  root,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const { startOpenAIServer } = await vite.ssrLoadModule('/tests/fixtures/openai-server.ts');
const content = Array.from({ length: tokens }, (_, i) => ` w${i}`);
const fixture = await startOpenAIServer('llama.cpp', { script: () => ({ content }) });
fixture.chunkIntervalMs = intervalMs;
// The recorded requests are not read here: keep none.
setInterval(() => (fixture.requests.length = 0), 1000).unref();
process.stdout.write(`OpenAI fixture: ${fixture.url}\n`);
process.on('SIGTERM', async () => {
  await fixture.stop();
  await vite.close();
  process.exit(0);
});
