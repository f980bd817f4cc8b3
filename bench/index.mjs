// Runs bench/run.ts through Vite's SSR module loader, so the app's modules load exactly as they are built
// (the @shared alias, import.meta.glob'd templates) without a separate build of the benchmark.
import { ssrLoader } from '../scripts/ssr-loader.mjs';

const loader = await ssrLoader();
let code = 0;
try {
  const mod = await loader.load('/bench/run.ts');
  await mod.main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`bench failed: ${e?.stack ?? e}\n`);
  code = 1;
} finally {
  await loader.close();
}
process.exit(code);
