// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalModel } from '@shared/contract/local-models';
import type { Download } from '@shared/contract/local-downloads';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { DownloadInline } = await import('../../renderer/src/pages/catalogue/DownloadInline');
const { firstGgufFile } = await import('../../renderer/src/lib/gguf-files');

const repo = 'tiny/Tiny-GGUF';
const file = 'tiny-Q8_0.gguf';
const MB = 1_000_000;

const download = (patch: Partial<Download> = {}): Download => ({
  id: 'd1',
  repo,
  revision: 'main',
  file,
  files: [file],
  state: 'downloading',
  receivedBytes: 0,
  totalBytes: 100 * MB,
  bytesPerSecond: 0,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...patch,
});
const onDisk = (patch: Partial<LocalModel> = {}): LocalModel => ({
  id: `${repo}/${file}`,
  name: 'tiny-Q8_0',
  path: `/data/models/${repo}/${file}`,
  parts: 1,
  source: 'downloaded',
  folder: '/data/models',
  repo,
  quant: 'Q8_0',
  sizeBytes: 100 * MB,
  embedding: false,
  deletable: true,
  ...patch,
});

beforeEach(() => main.reset());
afterEach(cleanup);

/** The component shown, the library answered with `models`, and the watch's first snapshot sent. */
async function shown(models: LocalModel[], downloads: Download[]) {
  render(<DownloadInline repo={repo} file={file} />);
  await (await main.next('local.models')).answer({ models, folders: [] });
  const watch = await main.stream('local.downloads.watch');
  await watch.events({ downloads });
  return watch;
}
const state = () => screen.getByTestId('local-download-state');

describe('"Download and run in HubDesk" on a model page', () => {
  it('idle: starts the download of the picked file, then shows its progress as the watch reports it', async () => {
    const watch = await shown([], []);
    await userEvent.click(screen.getByRole('button', { name: 'Download and run in HubDesk' }));
    const start = await main.next('local.download.start');
    expect(start.input).toEqual({ repo, file });
    await start.answer(download({ state: 'queued' }));
    await watch.events({ downloads: [download({ state: 'queued' })] });
    expect(state().textContent).toMatch(/Waiting/);
    await watch.events({
      downloads: [download({ receivedBytes: 25 * MB, bytesPerSecond: 5 * MB, etaSeconds: 15 })],
    });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(state().textContent).toBe('Downloading · 25.0 MB of 100 MB · 25% · 5.0 MB/s · about 15 s left');
  });

  it('downloading: Pause pauses it; paused: Resume resumes it, and Cancel cancels it', async () => {
    const watch = await shown([], [download({ receivedBytes: 50 * MB, bytesPerSecond: MB, etaSeconds: 50 })]);
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    const pause = await main.next('local.download.pause');
    expect(pause.input).toEqual({ id: 'd1' });
    await pause.answer(download({ state: 'paused', receivedBytes: 50 * MB }));
    await watch.events({ downloads: [download({ state: 'paused', receivedBytes: 50 * MB })] });
    expect(state().textContent).toMatch(/^Paused\. · 50\.0 MB of 100 MB · 50%$/);
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect((await main.next('local.download.resume')).input).toEqual({ id: 'd1' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((await main.next('local.download.cancel')).input).toEqual({ id: 'd1' });
  });

  it('failed: says why in main’s words, with the way to the gated repo’s page; Try again starts afresh', async () => {
    const message =
      'tiny/Tiny-GGUF is gated: accept its terms on huggingface.co, then set a Hugging Face token in Settings → Secrets.';
    await shown([], [download({ state: 'failed', error: { code: 'forbidden', message } })]);
    expect(screen.getByRole('alert').textContent).toContain(`The download failed: ${message}`);
    expect(screen.getByRole('link', { name: 'Its page on the Hub' }).getAttribute('href')).toBe(
      'https://huggingface.co/tiny/Tiny-GGUF',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const dismiss = await main.next('local.download.dismiss');
    expect(dismiss.input).toEqual({ id: 'd1' });
    await dismiss.answer({ downloads: [] });
    expect((await main.next('local.download.start')).input).toEqual({ repo, file });
  });

  it('failed on a checksum: main’s words, no Hub link; a refused start says why too', async () => {
    const message = 'The downloaded file does not match the Hub’s checksum: it was deleted. Download it again.';
    await shown([], [download({ state: 'failed', error: { code: 'upstream', message } })]);
    expect(state().textContent).toBe(`The download failed: ${message}`);
    expect(screen.queryByRole('link', { name: 'Its page on the Hub' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await (await main.next('local.download.dismiss')).answer({ downloads: [] });
    await (
      await main.next('local.download.start')
    ).fail({ code: 'unavailable', message: 'Not enough free disk space: 100 MB needed, 20 MB free in /data.' });
    expect(screen.getByTestId('local-download-error').textContent).toMatch(/Not enough free disk space/);
  });

  it('done: Chat with it opens a new chat on the built-in engine, and Local models lists it', async () => {
    const id = `${repo}/${file}`;
    await shown([], [download({ state: 'done', receivedBytes: 100 * MB, modelId: id })]);
    expect(state().textContent).toBe('downloaded');
    expect(screen.getByRole('link', { name: 'Chat with it' }).getAttribute('href')).toBe(
      `#/chat/new/local/${encodeURIComponent(id)}`,
    );
    expect(screen.getByRole('link', { name: 'Open in Local models' }).getAttribute('href')).toBe('#/models/builtin');
    // The built-in engine's link asks Ollama nothing.
    expect(main.waiting('ollama.show')).toEqual([]);
  });

  it('a file already on disk offers the chat instead of a download; one with a problem does not', async () => {
    await shown([onDisk()], []);
    expect(screen.getByText('On disk —')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Chat with it' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
    cleanup();
    main.reset();
    await shown([onDisk({ problem: 'The file is truncated.' })], []);
    expect(screen.getByRole('button', { name: 'Download and run in HubDesk' })).toBeTruthy();
  });

  it('cancelled: says the partial file went, and offers the download again', async () => {
    await shown([], [download({ state: 'cancelled', receivedBytes: 10 * MB })]);
    expect(state().textContent).toMatch(/Cancelled/);
    expect(screen.getByRole('button', { name: 'Download and run in HubDesk' })).toBeTruthy();
  });

  it('a split quantization downloads from its first part', () => {
    expect(firstGgufFile(['Q8_0/m-Q8_0-00002-of-00002.gguf', 'Q8_0/m-Q8_0-00001-of-00002.gguf'])).toBe(
      'Q8_0/m-Q8_0-00001-of-00002.gguf',
    );
    expect(firstGgufFile(['m-Q4_K_M.gguf'])).toBe('m-Q4_K_M.gguf');
    expect(firstGgufFile([])).toBeUndefined();
  });
});
