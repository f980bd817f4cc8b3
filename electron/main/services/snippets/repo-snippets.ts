import type { Snippet } from '@shared/contract/snippets';
import { renderTemplate } from './local-server';

interface RepoSnippetRequest {
  kind: 'dataset' | 'space';
  id: string;
  files?: string[];
  sdk?: string;
}

/** pandas' reader per data-file type, best first (Parquet is what the Hub converts datasets to). */
const readers: { ext: RegExp; reader: string; extra?: string }[] = [
  { ext: /\.parquet$/i, reader: 'read_parquet' },
  { ext: /\.csv(\.gz)?$/i, reader: 'read_csv' },
  { ext: /\.tsv(\.gz)?$/i, reader: 'read_csv', extra: ', sep="\\t"' },
  { ext: /\.jsonl(\.gz)?$/i, reader: 'read_json', extra: ', lines=True' },
  { ext: /\.json(\.gz)?$/i, reader: 'read_json' },
];

/** Lexicographic order of two rank tuples. */
function before(a: number[], b: number[]): boolean {
  const i = a.findIndex((v, k) => v !== b[k]);
  return i >= 0 && a[i] < b[i];
}

/** The data file pandas should read: the best type first, then a train split, then the shortest path. */
export function pickDataFile(files: string[]): { file: string; reader: string; extra: string } | undefined {
  let best: { file: string; rank: number[]; reader: string; extra: string } | undefined;
  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    // Metadata the Hub and tools keep beside the data (dataset_infos.json, .gitattributes…) is not data.
    if (name.startsWith('.') || /^(dataset_infos?|dataset_dict|state|config)\.json$/i.test(name)) continue;
    const r = readers.findIndex((x) => x.ext.test(name));
    if (r < 0) continue;
    const rank = [r, /train/i.test(file) ? 0 : 1, file.length];
    if (!best || before(rank, best.rank))
      best = { file, rank, reader: readers[r].reader, extra: readers[r].extra ?? '' };
  }
  return best && { file: best.file, reader: best.reader, extra: best.extra };
}

/** The subdomain the Hub serves a Space's app on: `owner-name`, lower case, `_` and `.` as `-`. */
export function spaceAppUrl(id: string): string {
  return `https://${id.toLowerCase().replace(/[/_.]/g, '-')}.hf.space`;
}

const py = (s: string) => JSON.stringify(s);

function datasetSnippets(id: string, files: string[]): Snippet[] {
  const data = pickDataFile(files);
  const repo = py(id);
  const pandasVars = data
    ? { reader: data.reader, extra: data.extra, url: py(`hf://datasets/${id}/${data.file}`), converted: false }
    : {
        reader: 'read_parquet',
        extra: '',
        url: py(`hf://datasets/${id}@~parquet/default/train/0000.parquet`),
        converted: true,
      };
  return [
    {
      kind: 'library',
      language: 'python',
      client: 'datasets',
      content: renderTemplate('python', 'datasets', 'load', { repo }),
      install: 'pip install datasets',
    },
    {
      kind: 'library',
      language: 'python',
      client: 'pandas',
      content: renderTemplate('python', 'pandas', 'read', pandasVars),
      // hf:// paths are read by huggingface_hub's file system; Parquet needs pyarrow.
      install: 'pip install pandas pyarrow huggingface_hub',
    },
    {
      kind: 'library',
      language: 'python',
      client: 'huggingface_hub',
      content: renderTemplate('python', 'huggingface_hub', 'download', { repo, repo_type: py('dataset') }),
      install: 'pip install huggingface_hub',
    },
    {
      kind: 'library',
      language: 'sh',
      client: 'hf',
      content: renderTemplate('sh', 'hf', 'download', { id, repo_type: 'dataset' }),
      install: 'pip install huggingface_hub',
    },
  ];
}

function spaceSnippets(id: string, sdk: string | undefined): Snippet[] {
  // Only a Gradio app has the API gradio_client speaks; other SDKs serve whatever their authors wrote.
  if (sdk !== 'gradio') return [];
  const repo = py(id);
  return [
    {
      kind: 'library',
      language: 'python',
      client: 'gradio_client',
      content: renderTemplate('python', 'gradio_client', 'predict', { repo }),
      install: 'pip install gradio_client',
    },
    {
      kind: 'library',
      language: 'js',
      client: '@gradio/client',
      content: renderTemplate('js', 'gradio_client', 'predict', { repo }),
      install: 'npm install @gradio/client',
    },
  ];
}

/** "Use this dataset" (datasets, pandas, huggingface_hub, the hf CLI) and a Space's app link and "Use via API". */
export function renderRepoSnippets(req: RepoSnippetRequest): { snippets: Snippet[]; appUrl?: string } {
  if (req.kind === 'dataset') return { snippets: datasetSnippets(req.id, req.files ?? []) };
  return { snippets: spaceSnippets(req.id, req.sdk), appUrl: spaceAppUrl(req.id) };
}
