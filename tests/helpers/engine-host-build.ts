import { resolve } from 'node:path';
import { build } from 'vite';

// vitest runs main from its sources, but the engine host is a process of its own: it is built once per run (like
// `electron-vite build` builds it into out/main) and the services find it through HUBDESK_ENGINE_HOST.

const root = resolve(import.meta.dirname, '../..');

/** Builds electron/main/engine-host.ts into `outDir`; returns the entry's path. */
export async function buildEngineHost(outDir: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    resolve: { alias: { '@shared': resolve(root, 'shared') } },
    build: {
      ssr: resolve(root, 'electron/main/engine-host.ts'),
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { format: 'cjs', entryFileNames: 'engine-host.js' } },
    },
  });
  return resolve(outDir, 'engine-host.js');
}

/** vitest's global setup: one build per run, for every test file's services. */
export default async function setup(): Promise<void> {
  process.env.HUBDESK_ENGINE_HOST = await buildEngineHost(
    resolve(root, 'node_modules/.cache/hubdesk-test/engine-host'),
  );
}
