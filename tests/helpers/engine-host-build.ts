import { resolve } from 'node:path';
import { build } from 'vite';

// vitest runs main from its sources, but the engine host is a process of its own and the extraction worker a thread
// of its own: each is built once per run (like `electron-vite build` builds them into out/main) and the services find
// them through HUBDESK_ENGINE_HOST and HUBDESK_EXTRACT_WORKER.

const root = resolve(import.meta.dirname, '../..');

/** Builds electron/main/engine-host.ts into `outDir`; returns the entry's path. */
export function buildEngineHost(outDir: string): Promise<string> {
  return buildMainEntry('engine-host', outDir);
}

/** Builds electron/main/extract-worker.ts into `outDir` (the bench's services read documents through it); returns the entry's path. */
export function buildExtractWorker(outDir: string): Promise<string> {
  return buildMainEntry('extract-worker', outDir);
}

/** Builds electron/main/<name>.ts alone into `outDir` (as CommonJS, packages left to node_modules). */
async function buildMainEntry(name: string, outDir: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    resolve: { alias: { '@shared': resolve(root, 'shared') } },
    build: {
      ssr: resolve(root, `electron/main/${name}.ts`),
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { format: 'cjs', entryFileNames: `${name}.js` } },
    },
  });
  return resolve(outDir, `${name}.js`);
}

/** vitest's global setup: one build per run, for every test file's services. */
export default async function setup(): Promise<void> {
  const cache = resolve(root, 'node_modules/.cache/hubdesk-test');
  process.env.HUBDESK_ENGINE_HOST = await buildEngineHost(resolve(cache, 'engine-host'));
  // In the checkout's own out/ (node_modules may be shared between checkouts); packages resolve from node_modules.
  process.env.HUBDESK_EXTRACT_WORKER = await buildExtractWorker(resolve(root, 'out/test/extract-worker'));
}
