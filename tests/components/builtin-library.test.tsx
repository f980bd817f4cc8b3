// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalModels } from '@shared/contract/local-models';
import { heldMain as main } from '../helpers/held-main';
import { gguf, server, status } from './builtin-fixtures';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { ModelsPage } = await import('../../renderer/src/pages/models/ModelsPage');
const { useRoute } = await import('../../renderer/src/store/route');

const hf = gguf();
const mine = gguf({
  id: 'bartowski/Qwen-GGUF/Qwen-Q4_0.gguf',
  name: 'Qwen-Q4_0',
  repo: 'bartowski/Qwen-GGUF',
  quant: 'Q4_0',
  source: 'downloaded',
  deletable: true,
  sizeBytes: 900_000_000,
  plan: {
    contextSize: 8192,
    maxContext: 32768,
    gpuLayers: 20,
    layers: 28,
    sequences: 2,
    verdict: 'partial',
    explanation: 'Partial offload: 20 of 28 layers.',
  },
});
const broken = gguf({
  id: '/data/ggufs/half.gguf',
  name: 'half',
  repo: undefined,
  source: 'folder',
  problem: 'The file is truncated.',
  plan: undefined,
  verified: false,
});
const embed = gguf({
  id: '/data/ggufs/nomic-embed.gguf',
  name: 'nomic-embed',
  repo: undefined,
  source: 'folder',
  embedding: true,
  verified: false,
});
const folders = [
  { path: '/home/u/.cache/huggingface/hub', source: 'hf-cache' as const, auto: true, exists: true, models: 1 },
  { path: '/data/ggufs', source: 'folder' as const, auto: false, exists: true, models: 2 },
];
const library = { models: [hf, mine, broken, embed], folders };
const row = (id: string) => screen.getAllByTestId('library-row').find((r) => r.dataset.model === id)!;

beforeEach(() => {
  main.reset();
  useRoute.setState({ page: 'models', params: ['builtin'] });
  main.answer('local.server.status', () => server());
  main.answer('local.recommend', () => ({}));
});
afterEach(cleanup);

async function open(models: LocalModels = library) {
  render(<ModelsPage />);
  expect(screen.getByRole('tab', { name: 'Built-in engine' }).getAttribute('aria-selected')).toBe('true');
  await (await main.stream('local.downloads.watch')).events({ downloads: [] });
  await (await main.next('local.status')).answer(status());
  expect(screen.getByText('Looking for GGUF files on disk…')).toBeTruthy();
  await (await main.next('local.models')).answer(models);
}

describe('the built-in engine: models on disk', () => {
  it('lists each GGUF with its repo link, source, fit and marks; a problem row offers no Load; the filter narrows', async () => {
    await open();
    expect(screen.getAllByTestId('library-row').map((r) => r.dataset.model)).toEqual(library.models.map((m) => m.id));
    const h = within(row(hf.id));
    expect(h.getByRole('link', { name: 'org/tiny-GGUF' }).getAttribute('href')).toBe(
      '#/catalogue/model/org%2Ftiny-GGUF',
    );
    expect(h.getByTestId('source').textContent).toBe('HF cache');
    expect(h.getByTestId('fit-badge').dataset.verdict).toBe('ram');
    expect(h.getByRole('tooltip').textContent).toMatch(/needs about 0.1 GB/);
    expect(h.getByLabelText('verified')).toBeTruthy();
    expect(h.getByRole('link', { name: 'Chat with tiny-Q4_K_M' }).getAttribute('href')).toBe(
      `#/chat/new/local/${encodeURIComponent(hf.id)}`,
    );
    expect(h.queryByRole('button', { name: /Delete/ })).toBeNull(); // not HubDesk's file
    expect(within(row(mine.id)).getByTestId('source').textContent).toBe('Downloaded');
    expect(within(row(mine.id)).getByRole('button', { name: 'Delete Qwen-Q4_0' })).toBeTruthy();

    const b = within(row(broken.id));
    expect(b.getByTestId('model-problem').textContent).toBe('The file is truncated.');
    expect(b.queryByRole('button', { name: /Load/ })).toBeNull();
    const e = within(row(embed.id));
    expect(e.getByText('Embeddings')).toBeTruthy();
    expect(e.queryByRole('link', { name: /Chat/ })).toBeNull();

    await userEvent.type(screen.getByLabelText('Filter models on disk'), 'downloaded');
    expect(screen.getAllByTestId('library-row').map((r) => r.dataset.model)).toEqual([mine.id]);
    expect(screen.getByTestId('library-summary').textContent).toMatch(/^1 of 4/);
  });

  it('CPU threads at Load: the engine setting pre-filled (not sent unchanged), checked, another count sent', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Load Qwen-Q4_0' }));
    const form = within(screen.getByTestId('load-form'));
    const thr = form.getByLabelText('CPU threads') as HTMLInputElement;
    expect(thr.value).toBe('1');
    expect(form.getByText(/automatic count is 1 \(every core but one\)\. More threads than free cores/)).toBeTruthy();
    await userEvent.clear(thr);
    await userEvent.type(thr, '0');
    expect(form.getByText('Use between 1 and 256.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Load' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(thr);
    await userEvent.type(thr, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Load' }));
    expect((await main.next('local.load')).input).toMatchObject({ id: mine.id, threads: 2 });
  });

  it('one memory figure: the badge shows the plan’s total; the Load dialog labels its parts and follows the edits', async () => {
    const memory = { fileBytes: 900_000_000, kvBytes: 400_000_000, runtimeBytes: 500_000_000 };
    const withMemory = { ...mine, plan: { ...mine.plan!, memory } };
    await open({ models: [withMemory], folders: [] });
    expect(within(row(mine.id)).getByTestId('fit-badge').textContent).toMatch(/^Partial offload/);
    expect(within(row(mine.id)).getByTestId('fit-memory').textContent).toBe('1.8 GB in memory');
    await userEvent.click(screen.getByRole('button', { name: 'Load Qwen-Q4_0' }));
    const line = () => screen.getByTestId('load-memory').textContent;
    expect(line()).toBe('Memory for these settings: about 1.8 GB (file 900 MB + KV cache 400 MB + runtime 500 MB).');
    // Half the context: half the KV cache; the file and the runtime stay.
    const ctx = within(screen.getByTestId('load-form')).getByLabelText('Context length (tokens)');
    await userEvent.clear(ctx);
    await userEvent.type(ctx, '4096');
    expect(line()).toBe('Memory for these settings: about 1.6 GB (file 900 MB + KV cache 200 MB + runtime 500 MB).');
  });

  it('a link to load a model that is loaded already says so and opens no Load form', async () => {
    useRoute.setState({ page: 'models', params: ['builtin', 'load', mine.id] });
    render(<ModelsPage />);
    await (await main.stream('local.downloads.watch')).events({ downloads: [] });
    const on = { id: mine.id, name: mine.name, contextSize: 8192, gpuLayers: 0, sequences: 1, busy: 0, waiting: 0 };
    await (
      await main.next('local.status')
    ).answer(status({ loaded: [{ ...on, memoryBytes: 1e9, loadedAt: '2026-11-20T10:00:00.000Z', embedding: false }] }));
    await (await main.next('local.models')).answer(library);
    expect(screen.getByTestId('already-loaded').textContent).toMatch(/^Qwen-Q4_0 is loaded already/);
    expect(screen.queryByTestId('load-form')).toBeNull();
  });

  it('Load opens a form pre-filled from the plan; edits are sent; the loaded model shows with its memory, then unloads', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Load Qwen-Q4_0' }));
    const form = screen.getByTestId('load-form');
    const ctx = within(form).getByLabelText('Context length (tokens)') as HTMLInputElement;
    const gpu = within(form).getByLabelText('GPU layers') as HTMLInputElement;
    const seq = within(form).getByLabelText('Parallel requests') as HTMLInputElement;
    expect([ctx.value, gpu.value, seq.value]).toEqual(['8192', '20', '2']);
    expect(screen.getByTestId('load-plan').textContent).toMatch(/Partial offload: 20 of 28 layers/);

    await userEvent.clear(gpu);
    await userEvent.type(gpu, '40'); // more than the model's 28 layers
    expect(within(form).getByText('Use between 0 and 28.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Load' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(gpu);
    await userEvent.type(gpu, '12');
    await userEvent.clear(ctx);
    await userEvent.type(ctx, '4096');
    await userEvent.click(screen.getByRole('button', { name: 'Load' }));
    const load = await main.next('local.load');
    expect(load.input).toEqual({ id: mine.id, contextSize: 4096, gpuLayers: 12, sequences: 2 });
    expect(screen.getByRole('button', { name: 'Loading…' })).toBeTruthy();
    const loaded = {
      id: mine.id,
      name: mine.name,
      contextSize: 4096,
      gpuLayers: 12,
      sequences: 4,
      busy: 0,
      waiting: 0,
      memoryBytes: 1_200_000_000,
      loadedAt: '2026-11-20T10:00:00.000Z',
      embedding: false,
    };
    await load.answer(status({ started: true, gpu: 'cuda', loaded: [loaded] }));
    expect(screen.queryByTestId('load-form')).toBeNull();
    const bar = screen.getByTestId('engine-bar');
    expect(within(bar).getByTestId('engine-backend').textContent).toBe('llama.cpp · cuda');
    expect(within(bar).getByTestId('loaded-memory').textContent).toBe('1.2 GB in memory (file + KV cache + buffers)');
    expect(within(bar).getByText(/4,096 tokens · 12 GPU layers/)).toBeTruthy();
    expect(within(bar).getByTestId('loaded-activity').textContent).toBe('4 at once');
    expect(within(row(mine.id)).getByText('Loaded')).toBeTruthy();

    await userEvent.click(within(row(mine.id)).getByRole('button', { name: 'Unload Qwen-Q4_0' }));
    const unload = await main.next('local.unload');
    expect(unload.input).toEqual({ id: mine.id });
    await unload.answer(status({ started: true, gpu: 'cuda' }));
    expect(within(row(mine.id)).getByRole('button', { name: 'Load Qwen-Q4_0' })).toBeTruthy();
    expect(screen.getByTestId('engine-idle')).toBeTruthy();
  });

  it('Parallel requests: 1 without a proposal, says each has its own context, is checked, and is sent', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Load tiny-Q4_K_M' }));
    const form = within(screen.getByTestId('load-form'));
    const seq = form.getByLabelText('Parallel requests') as HTMLInputElement;
    expect(seq.value).toBe('1'); // the plan proposes no count
    const hint = form.getByText(/own context/);
    expect(hint.textContent).toBe('Each has its own context of 512 tokens, so memory grows with each.');
    expect(seq.getAttribute('aria-describedby')).toBe(hint.id);

    await userEvent.clear(seq);
    await userEvent.type(seq, '17');
    expect(form.getByText('Use between 1 and 16.')).toBeTruthy();
    expect(seq.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Load' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(seq);
    await userEvent.type(seq, '3');
    const ctx = form.getByLabelText('Context length (tokens)');
    await userEvent.clear(ctx);
    await userEvent.type(ctx, '256');
    expect(hint.textContent).toBe('Each has its own context of 256 tokens, so memory grows with each.');
    await userEvent.click(screen.getByRole('button', { name: 'Load' }));
    expect((await main.next('local.load')).input).toEqual({ id: hf.id, contextSize: 256, gpuLayers: 0, sequences: 3 });
  });

  it('a load that fails keeps the form open with main’s message', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Load tiny-Q4_K_M' }));
    await userEvent.click(screen.getByRole('button', { name: 'Load' }));
    const load = await main.next('local.load');
    expect(load.input).toEqual({ id: hf.id, contextSize: 512, gpuLayers: 0, sequences: 1 });
    await load.fail({ code: 'unavailable', message: 'Not enough memory: close other apps.' });
    expect(screen.getByTestId('load-form')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Not enough memory: close other apps.');
  });

  it('Delete asks first, says the files go, and shows the new library', async () => {
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Delete Qwen-Q4_0' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toMatch(/removes its file from disk/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete files' }));
    const del = await main.next('local.delete');
    expect(del.input).toEqual({ id: mine.id });
    await del.answer({ models: [hf, broken, embed], folders });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getAllByTestId('library-row')).toHaveLength(3);
  });

  it('folders: add by path (main’s refusal shown), forget a user folder, hide a found one', async () => {
    await open();
    const card = within(screen.getByTestId('folders'));
    expect(card.getByRole('button', { name: 'Hide /home/u/.cache/huggingface/hub' })).toBeTruthy();
    await userEvent.type(card.getByLabelText('Add a folder'), '/nope{Enter}');
    const add = await main.next('local.folders.add');
    expect(add.input).toEqual({ path: '/nope' });
    await add.fail({ code: 'invalid_input', message: 'No folder at /nope.' });
    expect(card.getByRole('alert').textContent).toBe('No folder at /nope.');
    expect((card.getByLabelText('Add a folder') as HTMLInputElement).value).toBe('/nope');

    await userEvent.click(card.getByRole('button', { name: 'Forget /data/ggufs' }));
    const forget = await main.next('local.folders.forget');
    expect(forget.input).toEqual({ path: '/data/ggufs' });
    await forget.answer({ models: [hf, mine], folders: folders.slice(0, 1) });
    expect(screen.getAllByTestId('folder')).toHaveLength(1);
    expect(screen.getAllByTestId('library-row')).toHaveLength(2);
  });

  it('problem files a scan counted without listing are said under the table and on their folder (issue #38 F14)', async () => {
    await open({ models: library.models, folders: [folders[0], { ...folders[1], problemsHidden: 49_800 }] });
    expect(screen.getByTestId('problems-hidden').textContent).toBe(
      '49800 more files that cannot be used are not listed, in /data/ggufs: fix or move them, then rescan.',
    );
    const folder = screen.getAllByTestId('folder').find((f) => f.dataset.path === '/data/ggufs')!;
    expect(folder.textContent).toContain('2 models · 49800 more files with problems not listed');
  });

  it('no hidden problem files: no such line', async () => {
    await open();
    expect(screen.queryByTestId('problems-hidden')).toBeNull();
  });

  it('nothing on disk: the recommendation, the note about found folders, Add a folder focuses the path field', async () => {
    main.reset();
    main.answer('local.server.status', () => server());
    await open({ models: [], folders: folders.slice(0, 1) });
    expect(screen.getByText('No models on disk yet')).toBeTruthy();
    expect(screen.getByText(/Hugging Face cache and LM Studio’s folder are found automatically/)).toBeTruthy();
    const rec = await main.next('local.recommend');
    await rec.answer({
      recommendation: {
        repo: 'Qwen/Qwen3-0.6B-GGUF',
        file: 'Qwen3-0.6B-Q8_0.gguf',
        quant: 'Q8_0',
        sizeBytes: 639_000_000,
        title: 'Qwen3 0.6B',
        why: 'Small and fits in RAM.',
      },
    });
    await userEvent.click(
      within(screen.getByTestId('recommendation')).getByRole('button', { name: 'Download and run' }),
    );
    const start = await main.next('local.download.start');
    expect(start.input).toEqual({ repo: 'Qwen/Qwen3-0.6B-GGUF', file: 'Qwen3-0.6B-Q8_0.gguf' });
    await userEvent.click(screen.getByRole('button', { name: 'Add a folder' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Add a folder'));
  });

  it('the library cannot be listed: the error with Try again', async () => {
    render(<ModelsPage />);
    await (await main.next('local.models')).fail({ code: 'internal', message: 'Could not read the HF cache.' });
    expect(screen.getByText('Could not list the models on disk')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await (await main.next('local.models')).answer(library);
    expect(screen.getAllByTestId('library-row')).toHaveLength(4);
  });

  it('Ollama not reachable: its tab offers the built-in engine; the arrow key switches tabs', async () => {
    main.answer('ollama.status', () => ({ host: 'http://127.0.0.1:11434', reachable: false }));
    main.answer('local.recommend', () => ({
      recommendation: {
        repo: 'org/tiny-GGUF',
        file: 'tiny-Q4_K_M.gguf',
        quant: 'Q4_K_M',
        sizeBytes: 524_288,
        title: 'Tiny',
        why: 'Fits.',
        modelId: hf.id,
      },
    }));
    useRoute.setState({ page: 'models', params: [] });
    render(<ModelsPage />);
    await (await main.next('ollama.list')).fail({ code: 'unavailable', message: 'Ollama is not running.' });
    const offer = within(await screen.findByTestId('no-ollama'));
    expect(offer.getByRole('heading').textContent).toBe('No Ollama? Run models inside HubDesk');
    await userEvent.click(await offer.findByRole('button', { name: 'Load' }));
    expect(location.hash).toBe(`#/models/builtin/load/${encodeURIComponent(hf.id)}`);

    await vi.waitFor(() => expect(screen.getByRole('tab', { name: 'Built-in engine', selected: true })).toBeTruthy());

    await act(async () => void (location.hash = '#/models'));
    await vi.waitFor(() => expect(screen.getByRole('tab', { name: 'Ollama', selected: true })).toBeTruthy());
    screen.getByRole('tab', { name: 'Ollama' }).focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(location.hash).toBe('#/models/builtin');
    // The new tab list keeps the keyboard's place.
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Built-in engine'));
  });
});
