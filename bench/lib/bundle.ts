import { resolve } from 'node:path';
import { build } from 'vite';

const root = process.cwd();

/** Bundles one renderer module into an IIFE (global `name`) so a benchmark can run it inside Chromium. */
export async function bundleForBrowser(entry: string, name: string): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { alias: { '@shared': resolve(root, 'shared') } },
    build: {
      write: false,
      minify: true,
      lib: { entry: resolve(root, entry), formats: ['iife'], name, fileName: () => `${name}.js` },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as { output: { type: string; code?: string }[] }[];
  const chunk = outputs[0].output.find((o) => o.type === 'chunk');
  if (!chunk?.code) throw new Error(`bundling ${entry} produced no code`);
  return chunk.code;
}
