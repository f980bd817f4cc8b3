// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HardwareView } from '@shared/contract/hardware';
import type { LocalModel } from '@shared/contract/local-models';
import type { Download } from '@shared/contract/local-downloads';
import { GiB, planQuants, type KvShape } from '@shared/fit';
import type { FitPlan } from '../../renderer/src/hooks/fit';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { CompareQuants } = await import('../../renderer/src/pages/catalogue/CompareQuants');
const { useStatus } = await import('../../renderer/src/store/status');
const { useCompareDraft } = await import('../../renderer/src/store/compare-draft');

const repo = 'o/m-GGUF';
const shape: KvShape = {
  layers: 16,
  kvHeads: 8,
  keyLength: 64,
  valueLength: 64,
  contextLength: 8192,
  source: 'header',
};
const quants = [
  { label: 'Q4_K_M', files: ['m-Q4_K_M.gguf'], size: 4_920_000_000 },
  { label: 'Q8_0', files: ['m-Q8_0.gguf'], size: 8_540_000_000 },
  { label: 'F16', files: ['m-F16.gguf'], size: 16_070_000_000 },
];

/** A 24 GiB machine without a GPU. */
function plan(rows = quants): FitPlan {
  const machine = { ramTotal: 24 * GiB, ramFree: 20 * GiB, gpus: [], unified: false };
  const hardware: HardwareView = { detected: machine, effective: machine, probes: [], source: 'detected' };
  const p = planQuants(rows, { ramBytes: machine.ramTotal, vramBytes: 0, unified: false }, shape, 4096);
  return { hardware, shape, ctx: 4096, maxCtx: 8192, setCtx: () => {}, ...p };
}

const engine = { started: false, loaded: [], keepAliveMinutes: 5 };
const q8OnDisk: LocalModel = {
  id: `${repo}/m-Q8_0.gguf`,
  name: 'm-Q8_0',
  path: `/data/models/${repo}/m-Q8_0.gguf`,
  parts: 1,
  source: 'downloaded',
  folder: '/data/models',
  repo,
  quant: 'Q8_0',
  sizeBytes: 8_540_000_000,
  embedding: false,
  deletable: true,
};
const download = (patch: Partial<Download>): Download => ({
  id: 'd1',
  repo,
  revision: 'main',
  file: 'm-Q4_K_M.gguf',
  files: ['m-Q4_K_M.gguf'],
  state: 'queued',
  receivedBytes: 0,
  totalBytes: 4_920_000_000,
  bytesPerSecond: 0,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...patch,
});

beforeEach(() => {
  main.reset();
  location.hash = '';
  useCompareDraft.setState({ draft: undefined, note: undefined });
  // Ollama is down: the built-in engine is the one left.
  useStatus.setState({ ollama: { host: 'http://127.0.0.1:11434', reachable: false } });
  main.answer('ollama.list', () => Promise.reject({ code: 'unavailable', message: 'Ollama is not running.' }));
  main.answer('ollama.status', () => ({ host: 'http://127.0.0.1:11434', reachable: false }));
});
afterEach(cleanup);

/** The page's button, the engine asked, the dialog opened, the library and the download queue answered. */
async function opened(models: LocalModel[]) {
  render(<CompareQuants repo={repo} plan={plan()} />);
  await (await main.next('local.status')).answer(engine);
  await userEvent.click(screen.getByRole('button', { name: 'Compare quants' }));
  const dialog = screen.getByRole('dialog', { name: 'Compare quants' });
  for (const c of main.waiting('local.status')) await c.answer(engine);
  await (await main.next('local.models')).answer({ models, folders: [] });
  const watch = await main.stream('local.downloads.watch');
  await watch.events({ downloads: [] });
  return { dialog, watch };
}

describe('Compare quants, on the built-in engine while Ollama is down', () => {
  it('downloads only the missing quant on confirm, shows its progress, then hands the set to Compare', async () => {
    const { dialog, watch } = await opened([q8OnDisk]);
    const d = within(dialog);
    expect(d.getByRole('radio', { name: /Ollama/ })).toHaveProperty('disabled', true);
    expect(d.getByRole('radio', { name: /built-in engine/ })).toHaveProperty('checked', true);
    expect(d.getByText(/Ollama is not running/)).toBeTruthy();
    // Q4_K_M (the CPU default) against Q8_0, which is on disk already; nothing asked of main yet.
    expect(d.getByRole('checkbox', { name: /Q4_K_M/ })).toHaveProperty('checked', true);
    expect(d.getByRole('checkbox', { name: /Q8_0/ })).toHaveProperty('checked', true);
    expect(d.getByRole('checkbox', { name: /F16/ })).toHaveProperty('checked', false);
    expect(d.getAllByTestId('cq-here')).toHaveLength(1);
    expect(main.waiting('local.download.start')).toHaveLength(0);
    const confirm = d.getByTestId('cq-confirm');
    expect(confirm.textContent).toBe('Download 1 file (4.9 GB) and compare');

    await userEvent.click(confirm);
    const start = await main.next('local.download.start');
    expect(start.input).toEqual({ repo, file: 'm-Q4_K_M.gguf' });
    await start.answer(download({}));
    await watch.events({ downloads: [download({ state: 'downloading', receivedBytes: 2_460_000_000 })] });
    expect(d.getByRole('progressbar', { name: 'Downloading Q4_K_M' }).getAttribute('aria-valuenow')).toBe('50');
    // The choice is locked while it fetches (the fieldset is disabled).
    expect(d.getByRole('checkbox', { name: /F16/ }).matches(':disabled')).toBe(true);
    expect(location.hash).toBe('');

    const id = `${repo}/m-Q4_K_M.gguf`;
    await watch.events({ downloads: [download({ state: 'done', receivedBytes: 4_920_000_000, modelId: id })] });
    await vi.waitFor(() => expect(location.hash).toBe('#/compare'));
    expect(useCompareDraft.getState().note).toBe(`Q4_K_M against Q8_0 of ${repo}`);
    expect(useCompareDraft.getState().draft).toEqual({
      panes: [
        { backend: 'local', model: id },
        { backend: 'local', model: q8OnDisk.id },
      ],
    });
  });

  it('a refused download says why, and the choice is offered again; a third quant counts in the button', async () => {
    const { dialog } = await opened([]);
    const d = within(dialog);
    await userEvent.click(d.getByRole('checkbox', { name: /F16/ }));
    expect(d.getByTestId('cq-confirm').textContent).toBe('Download 3 files (29.5 GB) and compare');
    await userEvent.click(d.getByRole('checkbox', { name: /F16/ }));
    await userEvent.click(d.getByTestId('cq-confirm'));
    await (
      await main.next('local.download.start')
    ).fail({ code: 'unavailable', message: 'Not enough free disk space: 4.9 GB needed, 1.0 GB free in /data.' });
    expect(d.getByTestId('cq-error').textContent).toMatch(/Not enough free disk space/);
    expect(d.getByTestId('cq-confirm')).toHaveProperty('disabled', false);
    expect(location.hash).toBe('');
  });

  it('neither engine usable: the button is disabled and says why; fewer than 2 quants: no button', async () => {
    render(<CompareQuants repo={repo} plan={plan()} />);
    await (
      await main.next('local.status')
    ).answer({ ...engine, error: { code: 'unavailable', message: 'llama.cpp has no binary for this CPU' } });
    expect(screen.getByRole('button', { name: 'Compare quants' })).toHaveProperty('disabled', true);
    expect(screen.getByTestId('compare-quants-why').textContent).toMatch(
      /Ollama is not running, and the built-in engine cannot start \(llama\.cpp has no binary for this CPU\)/,
    );
    cleanup();
    render(<CompareQuants repo={repo} plan={plan(quants.slice(0, 1))} />);
    expect(screen.queryByRole('button', { name: 'Compare quants' })).toBeNull();
  });
});
