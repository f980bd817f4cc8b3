import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

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
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      sourcemap: false,
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
