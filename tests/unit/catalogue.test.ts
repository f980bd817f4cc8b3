import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GGMLFileQuantizationType,
  GGUF_QUANT_ORDER,
  LIBRARY_TASK_MAPPING,
  MODALITIES,
  MODALITY_LABELS,
  MODEL_LIBRARIES_UI_ELEMENTS,
  PIPELINE_DATA,
  TASKS_DATA,
} from '@huggingface/tasks';
import type { CatalogueData } from '@shared/contract/catalogue';
import { catalogueDataSchema } from '@shared/contract/catalogue';
import { modelRecordSchema } from '@shared/model-record';
import { buildCatalogue } from '../../electron/main/services/catalogue/build';
import { ggufQuants } from '../../electron/main/services/hub/gguf';
import {
  buildSearchIndex,
  recordsFromCatalogue,
  searchIndex,
  fuzzyNarrows,
  exactMatches,
  type SearchRecord,
} from '../../renderer/src/lib/catalogue-search';

type TaskData = {
  label: string;
  summary: string;
  libraries: string[];
  widgetModels: string[];
  youtubeId?: string;
  canonicalId?: string;
  isPlaceholder?: boolean;
  models: { id: string; description: string }[];
  datasets: { id: string; description: string }[];
  spaces: { id: string; description: string }[];
  metrics: { id: string; description: string }[];
  demo: { inputs: Record<string, string>[]; outputs: Record<string, string>[] };
};
const tasksData = TASKS_DATA as unknown as Record<string, TaskData | undefined>;
const pipelines = PIPELINE_DATA as Record<string, { name: string; modality: keyof typeof MODALITY_LABELS }>;
const libs = MODEL_LIBRARIES_UI_ELEMENTS as unknown as Record<
  string,
  {
    prettyLabel: string;
    repoName: string;
    repoUrl: string;
    docsUrl?: string;
    filter?: boolean;
    countDownloads?: string;
    snippets?: unknown;
  }
>;
const taskIds = Object.keys(PIPELINE_DATA);
const withPage = taskIds.filter((id) => tasksData[id] && !tasksData[id]!.canonicalId && !tasksData[id]!.isPlaceholder);
const withoutData = taskIds.filter((id) => !tasksData[id] || tasksData[id]!.isPlaceholder);
const canonical = taskIds.filter((id) => tasksData[id]?.canonicalId);

/** The visible text of rendered HTML, entities decoded. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

const data: CatalogueData = buildCatalogue('test');

describe('embedded catalogue built from @huggingface/tasks', () => {
  it('matches its own contract schema', () => {
    expect(() => catalogueDataSchema.parse(data)).not.toThrow();
  });

  it('has every pipeline type, with its modality, and the right status', () => {
    expect(data.tasks.map((t) => t.id)).toEqual(taskIds);
    for (const t of data.tasks) {
      expect(t.modality).toBe(pipelines[t.id].modality);
      expect(t.name).toBe(pipelines[t.id].name);
      const d = tasksData[t.id];
      const status = !d ? 'missing' : d.canonicalId ? 'canonical' : d.isPlaceholder ? 'placeholder' : 'ok';
      expect(t.status, t.id).toBe(status);
      expect(t.canonicalId).toBe(d?.canonicalId);
      const declared = Object.entries(LIBRARY_TASK_MAPPING)
        .filter(([, ts]) => (ts as string[] | undefined)?.includes(t.id))
        .map(([l]) => l);
      expect(t.declaredBy.sort()).toEqual(declared.sort());
    }
    expect(data.modalities.map((m) => m.label)).toEqual(MODALITIES.map((m) => MODALITY_LABELS[m]));
  });

  it('lists every library entry with its fields verbatim', () => {
    expect(data.libraries.map((l) => l.id)).toEqual(Object.keys(libs));
    for (const l of data.libraries) {
      const src = libs[l.id];
      expect(l.prettyLabel).toBe(src.prettyLabel);
      expect(l.repoUrl).toBe(src.repoUrl);
      expect(l.repoName).toBe(src.repoName);
      expect(l.docsUrl).toBe(src.docsUrl);
      expect(l.filter).toBe(src.filter);
      expect(l.countDownloads).toBe(src.countDownloads);
      expect(l.hasSnippets).toBe(typeof src.snippets === 'function');
      const listing = taskIds.filter((t) => tasksData[t]?.libraries.includes(l.id));
      expect(l.tasks).toEqual(listing);
    }
  });

  it('lists every model, dataset and demo app the task data mentions; models are ModelRecords', () => {
    const modelIds = new Set<string>();
    const datasetIds = new Set<string>();
    const appIds = new Set<string>();
    for (const id of taskIds) {
      const d = tasksData[id];
      if (!d) continue;
      // Empty ids (a few widget models) are skipped.
      d.models.forEach((m) => m.id && modelIds.add(m.id));
      d.widgetModels.forEach((m) => m && modelIds.add(m));
      d.datasets.forEach((x) => x.id && datasetIds.add(x.id));
      d.spaces.forEach((x) => x.id && appIds.add(x.id));
    }
    expect(new Set(data.models.map((m) => m.id))).toEqual(modelIds);
    expect(new Set(data.datasets.map((m) => m.id))).toEqual(datasetIds);
    expect(new Set(data.apps.map((m) => m.id))).toEqual(appIds);
    for (const m of data.models) {
      expect(modelRecordSchema.safeParse(m).success).toBe(true);
      expect(m.tags).toEqual([]);
      expect(m.pipeline_tag).toBe(m.tasks[0]);
      for (const t of m.tasks) {
        const d = tasksData[t]!;
        expect(d.models.some((x) => x.id === m.id) || d.widgetModels.includes(m.id)).toBe(true);
      }
      if (m.library_name) expect(Object.hasOwn(libs, m.library_name)).toBe(true);
    }
  });
});

describe('catalogue pages render the package data', () => {
  // The page modules reach for the app's client (and the route store for the document's events) at import: give them
  // a stand-in window and document.
  let TaskPage: typeof import('../../renderer/src/pages/catalogue/TaskPage').TaskPage;
  let LibraryView: typeof import('../../renderer/src/pages/catalogue/LibraryView').LibraryView;
  let view: import('../../renderer/src/store/catalogue').CatalogueView;

  beforeAll(async () => {
    vi.stubGlobal('window', { hubdesk: { call: async () => ({}), stream: () => ({}) }, addEventListener: () => {} });
    vi.stubGlobal('document', { addEventListener: () => {} });
    vi.stubGlobal('location', { hash: '', origin: 'http://127.0.0.1', pathname: '/' });
    TaskPage = (await import('../../renderer/src/pages/catalogue/TaskPage')).TaskPage;
    LibraryView = (await import('../../renderer/src/pages/catalogue/LibraryView')).LibraryView;
    const { catalogueView } = await import('../../renderer/src/store/catalogue');
    view = catalogueView(data);
  });

  const renderTask = (id: string) => {
    const html = renderToStaticMarkup(createElement(TaskPage, { id, view }));
    return { html, txt: norm(text(html)) };
  };

  it.each(withPage)('task %s shows every field of its entry', (id) => {
    const d = tasksData[id]!;
    const { html, txt } = renderTask(id);
    expect(txt).toContain(norm(d.label));
    expect(txt).toContain(norm(d.summary));
    expect(txt).toContain(MODALITY_LABELS[pipelines[id].modality]);
    for (const lib of d.libraries) {
      expect(html).toContain(`href="#/catalogue/library/${encodeURIComponent(lib)}"`);
      expect(txt).toContain(norm(libs[lib]?.prettyLabel ?? lib));
    }
    for (const w of d.widgetModels.filter(Boolean))
      expect(html).toContain(`href="#/catalogue/model/${encodeURIComponent(w)}"`);
    for (const list of [d.models, d.datasets, d.spaces, d.metrics])
      for (const x of list) {
        expect(txt).toContain(norm(x.id));
        if (x.description) expect(txt).toContain(norm(x.description));
      }
    for (const item of [...(d.demo?.inputs ?? []), ...(d.demo?.outputs ?? [])]) {
      if (item.type === 'text') {
        if (item.label) expect(txt).toContain(norm(item.label));
        expect(txt).toContain(norm(item.content));
      }
      if (item.filename) {
        expect(txt).toContain(item.filename);
        expect(html).toContain(`data-type="${item.type}"`);
      }
    }
    if (d.youtubeId) expect(html).toContain(`https://www.youtube.com/watch?v=${d.youtubeId}`);
    else expect(html).not.toContain('youtube.com');
  });

  it.each(canonical)('task %s leads to its canonical task, with a note', (id) => {
    const d = tasksData[id]!;
    const target = tasksData[d.canonicalId!];
    const { html, txt } = renderTask(id);
    expect(html).toContain('data-testid="canonical-note"');
    expect(html).toContain(`href="#/catalogue/task/${d.canonicalId}"`);
    expect(txt).toContain(`${norm(d.label)} is covered by the`);
    if (target && !target.isPlaceholder) {
      // The canonical task's own page is shown.
      expect(txt).toContain(norm(target.summary));
      for (const m of target.models) expect(txt).toContain(m.id);
    } else {
      // The target has no data: say so, and keep this task's own data on screen.
      expect(txt).toContain('which has no task data yet');
      expect(txt).toContain(norm(d.summary));
    }
  });

  it.each(withoutData)('task %s without data shows a "no task page yet" view with what is known', (id) => {
    const { html, txt } = renderTask(id);
    expect(html).toContain('data-testid="no-task-view"');
    expect(txt).toContain('No task page yet');
    expect(txt).toContain(pipelines[id].name);
    expect(txt).toContain(MODALITY_LABELS[pipelines[id].modality]);
    const declared = Object.entries(LIBRARY_TASK_MAPPING)
      .filter(([, ts]) => (ts as string[] | undefined)?.includes(id))
      .map(([l]) => l);
    for (const l of declared) expect(html).toContain(`href="#/catalogue/library/${encodeURIComponent(l)}"`);
    if (declared.length === 0 && !tasksData[id]) expect(txt).toContain('None listed');
  });

  it('every library page shows its entry and the tasks that list it', () => {
    for (const lib of data.libraries) {
      const html = renderToStaticMarkup(createElement(LibraryView, { lib, tasks: view.tasks }));
      const txt = norm(text(html));
      const src = libs[lib.id];
      expect(txt).toContain(norm(src.prettyLabel));
      expect(html).toContain(`href="${src.repoUrl.replace(/&/g, '&amp;')}"`);
      if (src.docsUrl) expect(html).toContain(`href="${src.docsUrl.replace(/&/g, '&amp;')}"`);
      if (src.countDownloads) {
        expect(txt).toContain(norm(src.countDownloads));
        expect(txt).toContain('Which file fetches count as a download');
      }
      expect(txt).toContain(
        typeof src.snippets === 'function' ? 'Has a usage snippet generator' : 'No snippet generator',
      );
      expect(txt).toContain(src.filter === true ? 'Offered as a filter' : 'ot offered as a filter');
      for (const t of lib.tasks) expect(html).toContain(`href="#/catalogue/task/${t}"`);
    }
  });
});

describe('catalogue search', () => {
  const records = recordsFromCatalogue(data);
  const index = buildSearchIndex(records);
  const ids = (q: string, f = {}) => searchIndex(index, q, f).map((i) => records[i]);

  it('indexes every task, library, model, dataset and app', () => {
    const count = (k: SearchRecord['kind']) => records.filter((r) => r.kind === k).length;
    expect(count('task')).toBe(data.tasks.length);
    expect(count('library')).toBe(data.libraries.length);
    expect(count('model')).toBe(data.models.length);
    expect(count('dataset')).toBe(data.datasets.length);
    expect(count('app')).toBe(data.apps.length);
  });

  it('finds models by name, and tolerates a typo', () => {
    const whisper = data.models.filter((m) => m.id.toLowerCase().includes('whisper')).map((m) => m.id);
    expect(whisper.length).toBeGreaterThan(0);
    const found = ids('whisper').map((r) => r.id);
    for (const w of whisper) expect(found).toContain(w);
    const typo = ids('wisper').map((r) => r.id);
    expect(typo).toContain(whisper[0]);
    expect(ids('whsiper').map((r) => r.id)).toContain(whisper[0]);
  });

  it('typing narrows the previous answer without changing the result', () => {
    const typed = buildSearchIndex(records);
    let out: number[] = [];
    for (const q of ['s', 'sp', 'spe', 'spee', 'speec', 'speech', 'speech ', 'speech r']) out = searchIndex(typed, q);
    expect(out).toEqual(searchIndex(buildSearchIndex(records), 'speech r'));
    expect(out.length).toBeGreaterThan(0);
    // Changing a filter or deleting a character starts again from the whole list.
    expect(searchIndex(typed, 'speech', { kind: 'task' })).toEqual(
      searchIndex(buildSearchIndex(records), 'speech', { kind: 'task' }),
    );
    expect(searchIndex(typed, 'spee')).toEqual(searchIndex(buildSearchIndex(records), 'spee'));
  });

  it('typing a query with typos, keystroke by keystroke, answers exactly what a fresh search answers', () => {
    // The typo-tolerant pass narrows its previous answer only where uFuzzy's rules make that safe (fuzzyNarrows).
    const queries = [
      'wisper larg',
      'whsiper',
      'stable difusion xl',
      'bert-base uncasd',
      'lama 3 instrct',
      'qwen2 coder',
      'sentnce simlarity',
    ];
    for (const q of queries) {
      const typed = buildSearchIndex(records);
      for (let i = 1; i <= q.length; i++) {
        const prefix = q.slice(0, i);
        expect(searchIndex(typed, prefix), prefix).toEqual(searchIndex(buildSearchIndex(records), prefix));
      }
    }
  });

  it('the plain-word exact pass finds exactly the records uFuzzy does, with and without candidates', () => {
    const mixed: SearchRecord[] = [
      ...records,
      ...['Whisper-LARGE', 'KELVIN-\u212a-model', 'İstanbul-bert', 'Qwen2.5-Coder'].map((id) => ({
        kind: 'model' as const,
        id: `odd/${id}`,
        label: `odd/${id}`,
        modalities: [],
        tasks: [],
      })),
    ];
    const index = buildSearchIndex(mixed);
    const half = mixed.map((_, i) => i).filter((i) => i % 2 === 0);
    for (const q of ['w', 'W', 'whisper', 'LARGE', 'k', 'i', 'bert', 'qwen2', '5', 'zzzz']) {
      expect(exactMatches(index, q), q).toEqual(index.strict.filter(index.haystack, q) ?? []);
      expect(exactMatches(index, q, half), q).toEqual(index.strict.filter(index.haystack, q, half) ?? []);
    }
  });

  it('fuzzyNarrows allows narrowing only where a longer needle cannot match new records', () => {
    expect(fuzzyNarrows('w', 'wh')).toBe(true); // 1 → 2 letters: both exact
    expect(fuzzyNarrows('wh', 'whi')).toBe(false); // 3 letters allow a swap
    expect(fuzzyNarrows('whis', 'whisp')).toBe(false); // 5 letters allow any one typo
    expect(fuzzyNarrows('whisp', 'whispe')).toBe(true);
    expect(fuzzyNarrows('whisp', 'whisper lar')).toBe(true);
    expect(fuzzyNarrows('llama', 'llama 3')).toBe(true); // a new term only adds a constraint
    expect(fuzzyNarrows('llama', 'llama3')).toBe(true);
    expect(fuzzyNarrows('bert base', 'bert base unc')).toBe(true);
    expect(fuzzyNarrows('bert base un', 'bert base unc')).toBe(false);
    expect(fuzzyNarrows('qwen2', 'qwen2abc')).toBe(true); // a new letter part after a digit
    expect(fuzzyNarrows('', 'x')).toBe(false);
    expect(fuzzyNarrows('llama', 'mistral')).toBe(false);
  });

  it('ranks an exact task id first', () => {
    expect(ids('text-generation')[0]).toMatchObject({ kind: 'task', id: 'text-generation' });
  });

  it('filters by kind, modality, task and library', () => {
    expect(ids('', { kind: 'library' })).toHaveLength(data.libraries.length);
    const audioTasks = data.tasks.filter((t) => t.modality === 'audio');
    expect(ids('', { kind: 'task', modality: 'audio' }).map((r) => r.id)).toEqual(audioTasks.map((t) => t.id));
    const asr = data.models.filter((m) => m.tasks.includes('automatic-speech-recognition'));
    expect(
      ids('', { kind: 'model', task: 'automatic-speech-recognition' })
        .map((r) => r.id)
        .sort(),
    ).toEqual(asr.map((m) => m.id).sort());
    const withLib = data.models.filter((m) => m.library_name);
    const lib = withLib[0].library_name!;
    expect(
      ids('', { kind: 'model', library: lib })
        .map((r) => r.id)
        .sort(),
    ).toEqual(
      data.models
        .filter((m) => m.library_name === lib)
        .map((m) => m.id)
        .sort(),
    );
    expect(ids('whisper', { kind: 'dataset' }).every((r) => r.kind === 'dataset')).toBe(true);
  });

  it('works on a 100k-record synthetic model list (correctness only; timing is the benchmark’s)', () => {
    const synthetic: SearchRecord[] = Array.from({ length: 100_000 }, (_, i) => ({
      kind: 'model' as const,
      id: `org${i % 977}/model-${i}-${['llama', 'qwen', 'bert', 'mistral'][i % 4]}`,
      label: `org${i % 977}/model-${i}-${['llama', 'qwen', 'bert', 'mistral'][i % 4]}`,
      modalities: ['nlp'],
      tasks: ['text-generation'],
    }));
    synthetic.push({ kind: 'model', id: 'needle/zyxwhisperq', label: 'needle/zyxwhisperq', modalities: [], tasks: [] });
    const big = buildSearchIndex(synthetic);
    const hits = searchIndex(big, 'zyxwhisperq');
    expect(synthetic[hits[0]].id).toBe('needle/zyxwhisperq');
    expect(searchIndex(big, 'mistral').length).toBe(25_000);
  });
});

describe('GGUF quantizations', () => {
  it('parses labels from file names, orders them as GGUF_QUANT_ORDER and sums split files', () => {
    const q = ggufQuants([
      { rfilename: 'README.md', size: 10 },
      { rfilename: 'm-Q4_K_M.gguf', size: 100 },
      { rfilename: 'm-F16.gguf', size: 400 },
      { rfilename: 'Q8_0/m-Q8_0-00001-of-00002.gguf', size: 150 },
      { rfilename: 'Q8_0/m-Q8_0-00002-of-00002.gguf', size: 50 },
      { rfilename: 'mmproj-m-f16.gguf', size: 5 },
      { rfilename: 'm-Q2_K.gguf' },
      { rfilename: 'm-UD-Q4_K_XL.gguf', size: 110 },
    ]);
    // As GGUF_QUANT_ORDER lists them; Unsloth's UD-Q4_K_XL takes the slot of its base Q4_K_XL.
    const order = (l: string) =>
      GGUF_QUANT_ORDER.indexOf((GGMLFileQuantizationType as unknown as Record<string, number>)[l.replace(/^UD-/, '')]);
    const expected = ['F16', 'Q8_0', 'Q4_K_M', 'Q2_K', 'UD-Q4_K_XL'].sort((a, b) => order(a) - order(b));
    expect(expected.every((l) => order(l) >= 0)).toBe(true);
    expect(q.map((x) => x.label)).toEqual(expected);
    expect(q.find((x) => x.label === 'Q8_0')).toEqual({
      label: 'Q8_0',
      files: ['Q8_0/m-Q8_0-00001-of-00002.gguf', 'Q8_0/m-Q8_0-00002-of-00002.gguf'],
      size: 200,
    });
    expect(q.find((x) => x.label === 'Q2_K')!.size).toBeUndefined();
  });
});
