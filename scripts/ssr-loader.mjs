// The app's TypeScript modules, loaded through Vite's SSR module loader as they are built (the @shared alias,
// import.meta.glob'd templates): the bench, the stand-ins it runs in processes of their own, the first-screen build.
import { resolve } from 'node:path';
import { createServer } from 'vite';

export const root = resolve(import.meta.dirname, '..');

/** A Vite module loader over the repository: `load('/bench/run.ts')`, then `close()` when done. */
export async function ssrLoader(at = root) {
  const server = await createServer({
    configFile: false,
    root: at,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    resolve: { alias: { '@shared': resolve(at, 'shared') } },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  return { load: (path) => server.ssrLoadModule(path), close: () => server.close() };
}
