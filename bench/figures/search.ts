import { CatalogueService } from '../../electron/main/services/catalogue/service';
import { recordsFromCatalogue, type SearchRecord } from '../../renderer/src/pages/catalogue/search';
import { launchChromium } from '../lib/browser';
import { bundleForBrowser } from '../lib/bundle';
import { figure, percentile, type BenchContext, type Figure } from '../lib/measure';

/** What people type: prefixes of real queries, one keystroke at a time, typos included. */
const queries = [
  'whisper',
  'llama 3 instruct',
  'wisper',
  'bert base uncased',
  'stable diffusion xl',
  'qwen coder',
  'sentence transformers',
  'yolo',
];

declare const HubSearch: typeof import('../../renderer/src/pages/catalogue/search');

/**
 * Catalogue search per keystroke, in Chromium: the renderer's own search module over the embedded catalogue and
 * over a generated 100,000-model list. Each keystroke is one `searchIndex` call, as the page makes it.
 */
export async function search(ctx: BenchContext): Promise<Figure[]> {
  const code = await bundleForBrowser('renderer/src/pages/catalogue/search.ts', 'HubSearch');
  const embedded = recordsFromCatalogue(new CatalogueService().get());
  const browser = await launchChromium();
  const out: Figure[] = [];
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>search bench</title>');
    // tsx compiles this file with esbuild's keepNames: functions sent to the page call its `__name` helper.
    await page.addScriptTag({ content: `window.__name = (f) => f;\n${code}` });
    const rounds = ctx.runs(5, 2);
    for (const [label, size] of [
      ['embedded catalogue', 0],
      ['100,000 models', 100_000],
    ] as const) {
      const perRound: number[][] = await page.evaluate(
        ({ embedded, size, queries, rounds }) => {
          const words = [
            'llama',
            'qwen',
            'mistral',
            'phi',
            'gemma',
            'bert',
            'whisper',
            'diffusion',
            'coder',
            'instruct',
            'base',
            'large',
            'small',
            'chat',
            'vision',
            'embed',
            'xl',
            'tiny',
            'turbo',
            'sentence',
          ];
          const orgs = [
            'meta',
            'google',
            'openai',
            'qwen',
            'mistralai',
            'microsoft',
            'stabilityai',
            'bigscience',
            'sentence-transformers',
            'unsloth',
          ];
          let seed = 42;
          const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), (seed >>> 8) % n); // high bits: an LCG's low bits cycle
          const records: SearchRecord[] = size
            ? Array.from({ length: size }, (_, i) => {
                const id = `${orgs[rnd(orgs.length)]}-${i % 997}/${words[rnd(words.length)]}-${words[rnd(words.length)]}-${1 + rnd(70)}b`;
                return { kind: 'model' as const, id, label: id, modalities: ['nlp'], tasks: ['text-generation'] };
              })
            : embedded;
          const index = HubSearch.buildSearchIndex(records);
          const perRound: number[][] = [];
          for (let r = 0; r < rounds; r++) {
            const times: number[] = [];
            perRound.push(times);
            for (const q of queries) {
              for (let i = 1; i <= q.length; i++) {
                const t = performance.now();
                HubSearch.searchIndex(index, q.slice(0, i));
                times.push(performance.now() - t);
              }
              HubSearch.searchIndex(index, '');
            }
          }
          return perRound;
        },
        { embedded: size ? [] : embedded, size, queries, rounds },
      );
      const keystrokes = perRound[0].length;
      out.push(
        figure(
          `search p50 per keystroke: ${label}`,
          'ms',
          perRound.map((t) => percentile(t, 50)),
          {
            note: `${keystrokes} keystrokes a run`,
          },
        ),
        figure(
          `search p99 per keystroke: ${label}`,
          'ms',
          perRound.map((t) => percentile(t, 99)),
          {
            target: size ? '≤ 8.3 ms (half a frame)' : '≤ 16.7 ms (one frame)',
          },
        ),
      );
    }
  } finally {
    await browser.close();
  }
  return out;
}
