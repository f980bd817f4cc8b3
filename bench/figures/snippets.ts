import { snippets as inferenceSnippets } from '@huggingface/inference';
import { MODEL_LIBRARIES_UI_ELEMENTS, PIPELINE_DATA } from '@huggingface/tasks';
import type { ModelRecord } from '@shared/model-record';
import { CatalogueService } from '../../electron/main/services/catalogue/service';
import { createLogger } from '../../electron/main/services/log';
import { SnippetEngine } from '../../electron/main/services/snippets/engine';
import { toModelData } from '../../electron/main/services/snippets/model-data';
import { figure, type BenchContext, type Figure } from '../lib/measure';

/** One model record per pipeline type (every task the library may support), transformers-backed, chat where it applies. */
function modelsForEveryTask(): ModelRecord[] {
  return Object.keys(PIPELINE_DATA).map((task) => ({
    id: `bench-org/${task}-model`,
    pipeline_tag: task,
    library_name: 'transformers',
    tags: task === 'text-generation' || task === 'image-text-to-text' ? ['conversational'] : [],
    transformersInfo: { auto_model: 'AutoModel', pipeline_tag: task },
  }));
}

/** What the engine's inference + library kinds do, called on the libraries directly with the same arguments. */
function direct(models: ModelRecord[]): void {
  for (const m of models) {
    const data = toModelData(m);
    try {
      inferenceSnippets.getInferenceSnippets(data, 'hf-inference', undefined, {});
    } catch {
      // The engine shows such a failure in its pane; the baseline just moves on.
    }
    const libs = MODEL_LIBRARIES_UI_ELEMENTS as Record<string, { snippets?: (d: typeof data) => string[] }>;
    const lib = m.library_name ? libs[m.library_name] : undefined;
    try {
      lib?.snippets?.(data);
    } catch {
      // as above
    }
  }
}

const time = (fn: () => void) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

/** Snippets: the app's engine against a direct library call, first call and cached, and the whole embedded catalogue. */
export async function snippets(ctx: BenchContext): Promise<Figure[]> {
  const log = createLogger();
  const models = modelsForEveryTask();
  const runs = ctx.runs(9, 3);
  // The engine routes the library's logger into the app log (a global): set that first so both paths log alike.
  // Then warm both paths once (module-level template parsing, JIT), so the comparison is steady-state.
  new SnippetEngine(log).generate({ model: models[0] });
  direct(models);

  const directT: number[] = [];
  const first: number[] = [];
  const repeat: number[] = [];
  for (let r = 0; r < runs; r++) {
    const engine = new SnippetEngine(log);
    const gen = () => {
      for (const m of models) engine.generate({ model: m, kinds: ['inference', 'library'] });
    };
    // Alternate the order so neither side always runs on a warmer machine.
    if (r % 2) {
      directT.push(time(() => direct(models)));
      first.push(time(gen));
    } else {
      first.push(time(gen));
      directT.push(time(() => direct(models)));
    }
    repeat.push(time(gen));
  }

  const catalogue = (await new CatalogueService().get()).models as ModelRecord[];
  const all: number[] = [];
  for (let r = 0; r < ctx.runs(5, 2); r++) {
    const engine = new SnippetEngine(log);
    all.push(time(() => catalogue.forEach((m) => engine.generate({ model: m }))));
  }

  const n = models.length;
  return [
    figure(`snippets: first call, ${n} models (every task)`, 'ms', first, {
      baseline: directT,
      target: 'ratio ≤ 1.1 (baseline: direct library calls)',
    }),
    figure(`snippets: repeated call (cache), ${n} models`, 'ms', repeat, {
      baseline: directT,
      target: 'ratio ≤ 0.05 (≥ 20× faster than direct)',
    }),
    figure(`snippets: all kinds for every embedded model (${catalogue.length})`, 'ms', all, { target: '≤ 1,000 ms' }),
  ];
}
