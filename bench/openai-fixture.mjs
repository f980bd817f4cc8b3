// The OpenAI-compatible server of the endpoint figures (tests/fixtures/openai-server.ts as llama-server), in its own
// Node process as a real llama-server is, so its sending does not share an event loop with the client measured.
// `node bench/openai-fixture.mjs <tokens> <chunk interval ms>`: every chat reply is `<tokens>` tokens " w0 w1 …".
import { ssrLoader } from '../scripts/ssr-loader.mjs';

const [tokens, intervalMs] = process.argv.slice(2).map(Number);
const vite = await ssrLoader();
const { startOpenAIServer } = await vite.load('/tests/fixtures/openai-server.ts');
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
