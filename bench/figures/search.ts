import { CatalogueService } from '../../electron/main/services/catalogue/service';
import { recordsFromCatalogue, type SearchRecord } from '../../renderer/src/lib/catalogue-search';
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

declare const HubSearch: typeof import('../../renderer/src/lib/catalogue-search');

/**
 * Catalogue search per keystroke, in Chromium: the renderer's own search module over the embedded catalogue and over
 * generated 100,000- and 1,000,000-model lists. A keystroke costs the page one `searchExact` call (as useSearch makes
 * it); the typo-tolerant pass runs in the search worker, measured apart as the full `searchIndex` a worker runs.
 */
export async function search(ctx: BenchContext): Promise<Figure[]> {
  const code = await bundleForBrowser('renderer/src/lib/catalogue-search.ts', 'HubSearch');
  const embedded = recordsFromCatalogue(await new CatalogueService().get());
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
      ['1,000,000 models', ctx.quick ? 0 : 1_000_000],
    ] as const) {
      if (label.startsWith('1,000,000') && !size) continue;
      const { perRound, worker }: { perRound: number[][]; worker: number[][] } = await page.evaluate(
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
          // The worker's own index: its narrowing memory follows only the queries it is asked.
          const inWorker = HubSearch.buildSearchIndex(records);
          const perRound: number[][] = [];
          const worker: number[][] = [];
          for (let r = 0; r < rounds; r++) {
            const times: number[] = [];
            const fuzzy: number[] = [];
            perRound.push(times);
            worker.push(fuzzy);
            for (const q of queries) {
              for (let i = 1; i <= q.length; i++) {
                const t = performance.now();
                const { wantsFuzzy } = HubSearch.searchExact(index, q.slice(0, i));
                times.push(performance.now() - t);
                if (wantsFuzzy) {
                  const w = performance.now();
                  HubSearch.searchIndex(inWorker, q.slice(0, i));
                  fuzzy.push(performance.now() - w);
                }
              }
              HubSearch.searchExact(index, '');
              HubSearch.searchIndex(inWorker, '');
            }
          }
          return { perRound, worker };
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
            target:
              size === 100_000
                ? '≤ 4.2 ms (¼ frame)'
                : size
                  ? 'measured (target is on 100,000)'
                  : '≤ 16.7 ms (one frame)',
          },
        ),
        figure(
          `search worker p99 per typo-tolerant query: ${label}`,
          'ms',
          worker.map((t) => (t.length ? percentile(t, 99) : 0)),
          { note: 'off the page thread; replaces the exact answer when it finds more' },
        ),
      );
    }
  } finally {
    await browser.close();
  }
  return out;
}
