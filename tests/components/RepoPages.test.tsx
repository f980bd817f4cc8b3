// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SettingsView } from '@shared/contract/settings';
import type { Snippet } from '@shared/contract/snippets';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
// Monaco does not run in jsdom: the pane is a textarea with the same props (value in, edits out).
vi.mock('../../renderer/src/features/snippets/MonacoPane', () => ({
  default: (p: { value: string; label: string; onChange(v: string): void }) => (
    <textarea aria-label={p.label} value={p.value} onChange={(e) => p.onChange(e.target.value)} />
  ),
}));
const { ItemPage } = await import('../../renderer/src/pages/catalogue/ItemPage');
const { useSettings } = await import('../../renderer/src/store/settings');

const freshness = { source: 'network' as const, fetchedAt: '2026-11-25T10:00:00.000Z' };
let n = 0;
/** A repo this window has not seen (the window keeps the Hub's answers between tests). */
const fresh = (name: string) => `lab/${name}-${++n}`;
const notFound = {
  code: 'not_found' as const,
  message: 'The Hub at https://huggingface.co has no README. Check the spelling of the id.',
};
const datasetTags = [
  'task_categories:automatic-speech-recognition',
  'modality:audio',
  'modality:text',
  'format:parquet',
  'size_categories:10K<n<100K',
  'language:en',
  'library:datasets',
  'library:pandas',
  'license:cc-by-4.0',
  'region:us',
];
const snippet = (client: string, content: string): Snippet => ({
  kind: 'library',
  language: 'python',
  client,
  content,
  install: `pip install ${client}`,
});

async function openDataset(id: string, tags = datasetTags) {
  render(<ItemPage kind="datasets" id={id} tasks={new Map()} />);
  await (await main.next('hub.repo')).answer({ repo: { kind: 'dataset', id, tags }, freshness });
}

beforeAll(() => {
  useSettings.setState({
    view: {
      values: { hubAccess: 'online', hubEndpoint: 'https://huggingface.co' },
      secrets: [],
    } as unknown as SettingsView,
  });
});
beforeEach(() => main.reset());
afterEach(cleanup);

describe('Dataset and Space pages', () => {
  it("groups the dataset's Hub tags (tasks, modalities, formats, size, languages, libraries) and reads the licence from its tag", async () => {
    await openDataset(fresh('speech'));
    const tags = screen.getByTestId('repo-tags');
    const group = (key: string) => [...tags.querySelectorAll(`[data-group="${key}"] .badge`)].map((b) => b.textContent);
    expect(group('task_categories')).toEqual(['automatic-speech-recognition']);
    expect(group('modality')).toEqual(['audio', 'text']);
    expect(group('format')).toEqual(['parquet']);
    expect(group('size_categories')).toEqual(['10K – 100K rows']);
    expect(group('language')).toEqual(['en']);
    expect(group('library')).toEqual(['datasets', 'pandas']);
    expect(tags.textContent).not.toMatch(/region|us\b/);
    expect(screen.getByTestId('repo-licence').textContent).toBe('cc-by-4.0');
  });

  it('a README or file list the Hub answers 404 for is a quiet "No card" / "No files listed", never an alert', async () => {
    await openDataset(fresh('bare'), []);
    expect(screen.queryByTestId('repo-tags')).toBeNull();
    await (await main.next('hub.readme')).fail(notFound);
    expect(screen.getByTestId('repo-card-none').textContent).toBe('No card: this dataset has no README.');
    await userEvent.click(screen.getByTestId('repo-tab-files'));
    await (await main.next('hub.tree')).fail({ ...notFound, message: 'The Hub has no file list.' });
    expect(screen.getByTestId('repo-files-none').textContent).toBe('No files listed.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.body.textContent).not.toMatch(/spelling/);
  });

  it('an empty file list is "No files listed"; another failure still says what went wrong', async () => {
    await openDataset(fresh('empty'), []);
    await userEvent.click(screen.getByTestId('repo-tab-files'));
    await (await main.next('hub.tree')).answer({ entries: [], freshness });
    expect(screen.getByTestId('repo-files-none')).toBeTruthy();
    cleanup();
    await openDataset(fresh('down'), []);
    await userEvent.click(screen.getByTestId('repo-tab-files'));
    await (await main.next('hub.tree')).fail({ code: 'upstream', message: 'The Hub is having trouble (HTTP 502).' });
    expect(screen.getByRole('alert').textContent).toMatch(/HTTP 502/);
  });

  it('"Use this dataset" asks for nothing until opened, sends the file list, and keeps edits across client tabs', async () => {
    const id = fresh('corpus');
    await openDataset(id);
    await (await main.next('hub.readme')).answer({ markdown: '# Corpus', truncated: false, freshness });
    expect(main.waiting('snippets.repo')).toHaveLength(0);
    const toggle = screen.getByTestId('dataset-use-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await (
      await main.next('hub.tree')
    ).answer({
      entries: [
        { type: 'directory', path: 'data', size: 0 },
        { type: 'file', path: 'data/train.parquet', size: 10 },
      ],
      freshness,
    });
    const call = await main.next('snippets.repo');
    expect(call.input).toEqual({ kind: 'dataset', id, files: ['data/train.parquet'] });
    await call.answer({
      snippets: [snippet('datasets', `ds = load_dataset("${id}")`), snippet('pandas', 'df = pd.read_parquet(…)')],
    });
    const panel = screen.getByTestId('repo-snippets');
    const pane = (client: string) => within(panel).getByLabelText<HTMLTextAreaElement>(`${client} snippet for ${id}`);
    expect(pane('datasets').value).toBe(`ds = load_dataset("${id}")`);
    expect(within(panel).getByTestId('install-line').textContent).toBe('pip install datasets');
    await userEvent.type(pane('datasets'), '{Enter}print(ds)');
    await userEvent.click(within(panel).getByTestId('client-pandas'));
    expect(pane('pandas').value).toBe('df = pd.read_parquet(…)');
    await userEvent.click(within(panel).getByTestId('client-datasets'));
    expect(pane('datasets').value).toBe(`ds = load_dataset("${id}")\nprint(ds)`);
    await userEvent.click(within(panel).getByTestId('reset-snippet'));
    expect(pane('datasets').value).toBe(`ds = load_dataset("${id}")`);
    await userEvent.click(within(panel).getByTestId('save-snippet'));
    const save = await main.next('snippets.save');
    expect(save.input).toEqual({
      fileName: `${id.split('/')[1].replace(/-/g, '_')}_datasets.py`,
      content: `ds = load_dataset("${id}")`,
    });
  });

  it('a Gradio Space: its app link, and "Use via API" with the gradio_client snippets', async () => {
    const id = fresh('chat');
    render(<ItemPage kind="spaces" id={id} tasks={new Map()} />);
    await (
      await main.next('hub.repo')
    ).answer({
      repo: { kind: 'space', id, tags: ['gradio', 'license:mit', 'region:us'], sdk: 'gradio' },
      freshness,
    });
    const call = await main.next('snippets.repo');
    expect(call.input).toEqual({ kind: 'space', id, sdk: 'gradio' });
    await call.answer({
      appUrl: `https://lab-chat.hf.space`,
      snippets: [snippet('gradio_client', `client = Client("${id}")`)],
    });
    expect(screen.getByTestId('space-app').querySelector('a')?.getAttribute('href')).toBe('https://lab-chat.hf.space');
    expect(screen.getByTestId('repo-licence').textContent).toBe('mit');
    expect(screen.getByTestId('space-sdk').textContent).toBe('gradio');
    await userEvent.click(screen.getByTestId('space-api-toggle'));
    expect(screen.getByLabelText<HTMLTextAreaElement>(`gradio_client snippet for ${id}`).value).toBe(
      `client = Client("${id}")`,
    );
  });
});
