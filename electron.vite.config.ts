import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { buildCatalogue } from './electron/main/services/catalogue/build';
import { CATALOGUE_ASSET } from './shared/catalogue-asset';

/**
 * The embedded catalogue as a static asset of the renderer, built once here: the page fetches it (preloaded by
 * index.html) while its JS loads, instead of waiting for main to load @huggingface/tasks and build it at start-up.
 */
function catalogueAsset(): Plugin {
  return {
    name: 'hubdesk-catalogue-asset',
    generateBundle() {
      const { version } = createRequire(__filename)('@huggingface/tasks/package.json') as { version: string };
      this.emitFile({ type: 'asset', fileName: CATALOGUE_ASSET, source: JSON.stringify(buildCatalogue(version)) });
    },
  };
}

const alias = { '@shared': resolve(__dirname, 'shared') };

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      outDir: 'out/main',
      // Bundled (and tree-shaken) rather than required file by file from node_modules: main starts faster.
      externalizeDeps: false,
      rollupOptions: {
        // libsql is a native module (N-API prebuilt per platform): required at run time, never bundled.
        external: ['libsql'],
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          web: resolve(__dirname, 'electron/main/web.ts'),
          cli: resolve(__dirname, 'electron/main/cli.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only 'electron': bundle everything else into it.
      externalizeDeps: false,
      rollupOptions: { input: { index: resolve(__dirname, 'electron/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    resolve: { alias },
    plugins: [react(), catalogueAsset()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      sourcemap: false,
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
