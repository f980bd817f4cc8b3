import {
  LIBRARY_TASK_MAPPING,
  MODALITIES,
  MODALITY_LABELS,
  MODEL_LIBRARIES_UI_ELEMENTS,
  PIPELINE_DATA,
  TASKS_DATA,
} from '@huggingface/tasks';
import type {
  CatalogueData,
  CatalogueItem,
  CatalogueLibrary,
  CatalogueModel,
  CatalogueTask,
  DemoItem,
} from '@shared/contract/catalogue';
// Relative, not @shared: electron.vite.config.ts runs this file at build time, without the alias.
import { transformersInfoForTask } from '../../../../shared/transformers-auto';

type IdDesc = { id: string; description: string };

function idDescs(list: readonly { id: string; description?: string }[] | undefined): IdDesc[] {
  return (list ?? []).map((x) => ({ id: x.id, description: x.description ?? '' }));
}

function demoItems(items: readonly unknown[] | undefined): DemoItem[] {
  return (items ?? []).map((raw) => {
    const i = raw as Record<string, unknown>;
    const out: DemoItem = { type: String(i.type ?? 'text') };
    if (typeof i.label === 'string') out.label = i.label;
    if (typeof i.content === 'string') out.content = i.content;
    if (typeof i.filename === 'string') out.filename = i.filename;
    if (i.data !== undefined) out.data = i.data;
    return out;
  });
}

/** The library a model id most likely uses: its organisation is the library, or the task lists a single library. */
function guessLibrary(modelId: string, taskLibraries: string[]): string | undefined {
  const org = modelId.split('/')[0]?.toLowerCase();
  if (org && Object.hasOwn(MODEL_LIBRARIES_UI_ELEMENTS, org)) return org;
  return taskLibraries.length === 1 ? taskLibraries[0] : undefined;
}

/** Builds the embedded catalogue from @huggingface/tasks: pure data, no network. */
export function buildCatalogue(version: string): CatalogueData {
  const declaredBy = new Map<string, string[]>();
  for (const [lib, tasks] of Object.entries(LIBRARY_TASK_MAPPING)) {
    for (const t of tasks ?? []) declaredBy.set(t, [...(declaredBy.get(t) ?? []), lib]);
  }

  const tasks: CatalogueTask[] = [];
  const tasksOfLibrary = new Map<string, string[]>();
  const models = new Map<string, CatalogueModel>();
  const datasets = new Map<string, CatalogueItem>();
  const apps = new Map<string, CatalogueItem>();

  const addItem = (map: Map<string, CatalogueItem>, x: IdDesc, task: string) => {
    if (!x.id.trim()) return;
    const cur = map.get(x.id);
    if (!cur) map.set(x.id, { id: x.id, description: x.description, tasks: [task] });
    else {
      if (!cur.tasks.includes(task)) cur.tasks.push(task);
      if (!cur.description && x.description) cur.description = x.description;
    }
  };
  const addModel = (id: string, description: string, task: string, libs: string[], widget: boolean) => {
    if (!id.trim()) return; // the task data has a few empty widget model ids
    const cur = models.get(id);
    if (!cur) {
      const library = guessLibrary(id, libs);
      const m: CatalogueModel = { id, tags: [], pipeline_tag: task, tasks: [task], widget };
      if (id.includes('/')) m.author = id.split('/')[0];
      if (library) m.library_name = library;
      if (description) m.description = description;
      models.set(id, m);
      return;
    }
    if (!cur.tasks.includes(task)) cur.tasks.push(task);
    if (!cur.description && description) cur.description = description;
    if (!cur.library_name) {
      const library = guessLibrary(id, libs);
      if (library) cur.library_name = library;
    }
    cur.widget ||= widget;
  };

  const pipelines = PIPELINE_DATA as Record<
    string,
    { name: string; modality: string; subtasks?: { type: string; name: string }[] }
  >;
  for (const [id, p] of Object.entries(pipelines)) {
    const data = (TASKS_DATA as Record<string, (typeof TASKS_DATA)[keyof typeof TASKS_DATA]>)[id];
    const base = {
      id,
      name: p.name,
      modality: p.modality,
      subtasks: (p.subtasks ?? []).map((s) => ({ type: s.type, name: s.name })),
      declaredBy: declaredBy.get(id) ?? [],
    };
    if (!data) {
      tasks.push({
        ...base,
        status: 'missing',
        libraries: [],
        widgetModels: [],
        models: [],
        datasets: [],
        spaces: [],
        metrics: [],
      });
      continue;
    }
    const libraries = [...(data.libraries ?? [])] as string[];
    const task: CatalogueTask = {
      ...base,
      status: data.canonicalId ? 'canonical' : data.isPlaceholder ? 'placeholder' : 'ok',
      label: data.label,
      summary: data.summary,
      libraries,
      widgetModels: (data.widgetModels ?? []).filter((w) => w.trim() !== ''),
      models: idDescs(data.models),
      datasets: idDescs(data.datasets),
      spaces: idDescs(data.spaces),
      metrics: idDescs(data.metrics),
    };
    if (data.canonicalId) task.canonicalId = data.canonicalId;
    if (data.demo) task.demo = { inputs: demoItems(data.demo.inputs), outputs: demoItems(data.demo.outputs) };
    if (data.youtubeId) task.youtubeId = data.youtubeId;
    tasks.push(task);

    for (const lib of libraries) tasksOfLibrary.set(lib, [...(tasksOfLibrary.get(lib) ?? []), id]);
    for (const m of task.models) addModel(m.id, m.description, id, libraries, false);
    for (const w of task.widgetModels) addModel(w, '', id, libraries, true);
    for (const d of task.datasets) addItem(datasets, d, id);
    for (const s of task.spaces) addItem(apps, s, id);
  }

  // Without transformersInfo the transformers snippet is "Type of model unknown": give each its task's classes.
  for (const m of models.values()) {
    const info = m.library_name === 'transformers' ? transformersInfoForTask(m.pipeline_tag) : undefined;
    if (info && !m.transformersInfo) m.transformersInfo = info;
  }

  const declaredTasks = LIBRARY_TASK_MAPPING as Record<string, readonly string[] | undefined>;
  const libraries: CatalogueLibrary[] = Object.entries(MODEL_LIBRARIES_UI_ELEMENTS).map(([id, raw]) => {
    const l = raw as {
      prettyLabel: string;
      repoName: string;
      repoUrl: string;
      docsUrl?: string;
      filter?: boolean;
      countDownloads?: string;
      snippets?: unknown;
    };
    const out: CatalogueLibrary = {
      id,
      prettyLabel: l.prettyLabel,
      repoName: l.repoName,
      repoUrl: l.repoUrl,
      hasSnippets: typeof l.snippets === 'function',
      tasks: tasksOfLibrary.get(id) ?? [],
      declaredTasks: [...(declaredTasks[id] ?? [])],
    };
    if (l.docsUrl) out.docsUrl = l.docsUrl;
    if (typeof l.filter === 'boolean') out.filter = l.filter;
    if (typeof l.countDownloads === 'string') out.countDownloads = l.countDownloads;
    return out;
  });

  return {
    version,
    modalities: MODALITIES.map((m) => ({ id: m, label: MODALITY_LABELS[m] })),
    tasks,
    libraries,
    models: [...models.values()],
    datasets: [...datasets.values()],
    apps: [...apps.values()],
  };
}
