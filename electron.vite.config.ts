import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { buildCatalogue } from './electron/main/services/catalogue/build';
import { CATALOGUE_ASSET } from './shared/catalogue-asset';
import { renderFirstScreenHtml } from './scripts/first-screen';
import { FIRST_PAINT_SCRIPT_SOURCE } from './electron/main/services/static-files';
import { BOOT_TEMPLATE_ID, FIRST_PAINT_SCRIPT, LANDING_END_ID } from './shared/first-paint';

/**
 * The embedded catalogue as a static asset of the renderer, built once here: the page fetches it (preloaded by
 * index.html) while its JS loads, instead of waiting for main to load @huggingface/tasks and build it at start-up.
 */
function catalogueAsset(): Plugin[] {
  const { version } = createRequire(__filename)('@huggingface/tasks/package.json') as { version: string };
  let data: ReturnType<typeof buildCatalogue> | undefined;
  const catalogue = () => (data ??= buildCatalogue(version));
  return [
    {
      name: 'hubdesk-catalogue-asset',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: CATALOGUE_ASSET, source: JSON.stringify(catalogue()) });
      },
    },
    {
      // The catalogue landing, rendered by the app's own components, in index.html: the first paint shows it (where
      // main marks it as the first screen) while the JS loads. Its links work before the app does (a click changes the
      // address, which the app opens when it mounts); its form controls are disabled until the app replaces it.
      name: 'hubdesk-first-screen',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler: async (html, ctx) => {
          const landing = await renderFirstScreenHtml(__dirname, catalogue());
          // Nothing of the app is fetched before the landing's first paint: its tags (the entry script, the preloads
          // of the app's chunk, the stylesheet links) wait in a template that the first paint script puts in after
          // that paint (shared/first-paint.ts). On two cores, fetching and compiling them during the parse delayed
          // it. The catalogue's preload stays in the head: the app waits for that data (deferring it too measured no
          // earlier paint).
          const appTags: string[] = [];
          const styles: string[] = [];
          // The first screen's stylesheets go inline (the entry's, and the app chunk's: the catalogue's own), so the
          // first paint waits for nothing but this file. Each keeps a link that is never applied (media "not all"),
          // because Vite's loader of lazy chunks adds a chunk's stylesheet unless a link to it exists: that would
          // apply it again after the pages' own sheets.
          const inline = (file: string) => {
            const css = ctx.bundle?.[file];
            if (css?.type !== 'asset') throw new Error(`first screen: no stylesheet ${file}`);
            styles.push(`<style>${String(css.source)}</style>`);
            appTags.push(`<link rel="stylesheet" crossorigin href="./${file}" media="not all">`);
          };
          const headless = html.replace(
            /\s*(<script type="module" crossorigin src="[^"]+"><\/script>|<link rel="modulepreload" crossorigin href="[^"]+">|<link rel="stylesheet" crossorigin href="\.\/(assets\/[^"]+\.css)">)/g,
            (_m, tag: string, css?: string) => (css ? inline(css) : appTags.push(tag), ''),
          );
          if (!appTags.some((t) => t.startsWith('<script')))
            throw new Error('first screen: no entry script in index.html');
          // The app's chunk (React DOM and the app, imported by main.tsx) is preloaded with the entry.
          const mount = Object.values(ctx.bundle ?? {}).find(
            (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/renderer/src/mount.tsx'),
          );
          if (mount?.type === 'chunk') {
            for (const css of mount.viteMetadata?.importedCss ?? []) inline(css);
            for (const f of [mount.fileName, ...mount.imports])
              if (!appTags.some((t) => t.includes(`./${f}"`)))
                appTags.push(`<link rel="modulepreload" crossorigin href="./${f}">`);
          }
          return headless
            .replace(
              '</head>',
              `  <link rel="expect" href="#${LANDING_END_ID}" blocking="render" />\n    ${styles.join('\n    ')}\n    <template id="${BOOT_TEMPLATE_ID}">${appTags.join('')}</template>\n  </head>`,
            )
            .replace("script-src 'self'", `script-src 'self' ${FIRST_PAINT_SCRIPT_SOURCE}`)
            .replace(
              '<div id="root"></div>',
              `<script>${FIRST_PAINT_SCRIPT}</script>\n    <div id="root" data-landing>${landing}</div><div id="${LANDING_END_ID}"></div>`,
            );
        },
      },
    },
  ];
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
        // libsql is a native module (N-API prebuilt per platform): required at run time, never bundled. So is
        // node-llama-cpp (its Electron guide: bundling breaks the file layout it finds its llama.cpp binaries by), and
        // pdfjs-dist (2 MB, loaded on first use; its worker module is imported by path).
        external: ['libsql', /^node-llama-cpp(\/|$)/, /^pdfjs-dist(\/|$)/],
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          web: resolve(__dirname, 'electron/main/web.ts'),
          cli: resolve(__dirname, 'electron/main/cli.ts'),
          // The engine host: llama.cpp in a process of its own (a utilityProcess, or a Node child in the web mode).
          'engine-host': resolve(__dirname, 'electron/main/engine-host.ts'),
          // Documents are read on a worker thread with a heap cap and a time limit (services/documents/extract/thread.ts).
          'extract-worker': resolve(__dirname, 'electron/main/extract-worker.ts'),
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
    plugins: [react(), ...catalogueAsset()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      minify: true,
      sourcemap: false,
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
