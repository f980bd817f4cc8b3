import { describe, expect, it } from 'vitest';
import { pickDataFile, renderRepoSnippets, spaceAppUrl } from '../../electron/main/services/snippets/repo-snippets';

const ID = 'fixture-lab/speech-corpus';
const byClient = (files?: string[]) =>
  Object.fromEntries(renderRepoSnippets({ kind: 'dataset', id: ID, files }).snippets.map((s) => [s.client, s]));

describe('"Use this dataset" and a Space\'s "Use via API" (the app\'s own templates)', () => {
  it('datasets: load_dataset, pandas on a real data file, snapshot_download and the hf CLI', () => {
    const s = byClient([
      'README.md',
      '.gitattributes',
      'data/test-00000-of-00001.parquet',
      'data/train-00000-of-00002.parquet',
    ]);
    expect(Object.keys(s)).toEqual(['datasets', 'pandas', 'huggingface_hub', 'hf']);
    expect(s.datasets.content).toBe(`from datasets import load_dataset\n\nds = load_dataset("${ID}")\nprint(ds)`);
    expect(s.pandas.content).toBe(
      `import pandas as pd\n\ndf = pd.read_parquet("hf://datasets/${ID}/data/train-00000-of-00002.parquet")\nprint(df.head())`,
    );
    expect(s.huggingface_hub.content).toContain(`snapshot_download(repo_id="${ID}", repo_type="dataset")`);
    expect(s.hf).toMatchObject({ language: 'sh', content: `hf download ${ID} --repo-type=dataset` });
    for (const sn of Object.values(s)) {
      expect(sn.kind).toBe('library');
      expect(sn.install).toMatch(/^pip install /);
      expect(sn.content).not.toMatch(/\{\{|\{%|\n\n\n/);
    }
  });

  it('pandas reads CSV, TSV and JSON Lines with the right reader, and the Parquet conversion when no data file is listed', () => {
    expect(byClient(['metadata.csv', 'README.md']).pandas.content).toContain(
      `pd.read_csv("hf://datasets/${ID}/metadata.csv")`,
    );
    expect(byClient(['a/train.tsv']).pandas.content).toContain(
      `pd.read_csv("hf://datasets/${ID}/a/train.tsv", sep="\\t")`,
    );
    expect(byClient(['dataset_infos.json', 'train.jsonl']).pandas.content).toContain(
      `pd.read_json("hf://datasets/${ID}/train.jsonl", lines=True)`,
    );
    for (const files of [undefined, ['README.md', 'loader.py']]) {
      const none = byClient(files).pandas.content;
      expect(none).toContain(`pd.read_parquet("hf://datasets/${ID}@~parquet/default/train/0000.parquet")`);
      expect(none).toMatch(/^import pandas as pd\n\n# No data file is listed/);
    }
  });

  it('pickDataFile: Parquet before CSV, a train split before others, then the shortest path', () => {
    expect(pickDataFile(['b.csv', 'z/long/x.parquet'])?.file).toBe('z/long/x.parquet');
    expect(pickDataFile(['test.parquet', 'train.parquet'])?.file).toBe('train.parquet');
    expect(pickDataFile(['data/deep/train.csv', 'train.csv'])?.file).toBe('train.csv');
    expect(pickDataFile(['README.md', 'script.py'])).toBeUndefined();
  });

  it('Spaces: the app on hf.space for any SDK; gradio_client in Python and JavaScript for a Gradio app only', () => {
    const g = renderRepoSnippets({ kind: 'space', id: 'Fixture-Lab/llama_chat.v2', sdk: 'gradio' });
    expect(g.appUrl).toBe('https://fixture-lab-llama-chat-v2.hf.space');
    const [py, js] = g.snippets;
    expect(py).toMatchObject({ language: 'python', client: 'gradio_client', install: 'pip install gradio_client' });
    expect(py.content).toContain('client = Client("Fixture-Lab/llama_chat.v2")');
    expect(py.content).toContain('client.predict(\n    api_name="/predict",\n)');
    expect(js).toMatchObject({ language: 'js', client: '@gradio/client', install: 'npm install @gradio/client' });
    expect(js.content).toContain('await Client.connect("Fixture-Lab/llama_chat.v2")');
    const docker = renderRepoSnippets({ kind: 'space', id: 'acme/app', sdk: 'docker' });
    expect(docker).toEqual({ snippets: [], appUrl: spaceAppUrl('acme/app') });
  });
});
