// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineStatus } from '@shared/contract/local-engine';
import { heldMain as main } from '../helpers/held-main';
import { gguf, loadedModel, server, status } from './builtin-fixtures';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { ModelsPage } = await import('../../renderer/src/pages/models/ModelsPage');
const { useRoute } = await import('../../renderer/src/store/route');

beforeEach(() => {
  main.reset();
  useRoute.setState({ page: 'models', params: ['builtin'] });
  main.answer('local.server.status', () => server());
  main.answer('local.recommend', () => ({}));
  main.answer('local.models', () => ({ models: [gguf()], folders: [] }));
});
afterEach(cleanup);

/** The built-in engine's tab with the engine's status as main answers it; the engine bar. */
async function openBar(engine: EngineStatus) {
  render(<ModelsPage />);
  await (await main.next('local.status')).answer(engine);
  return within(screen.getByTestId('engine-bar'));
}

describe('the engine bar: CPU threads', () => {
  it('shows the automatic count; Change sets a count with Enter, then Automatic sends 0; the keyboard comes back to Change', async () => {
    const bar = await openBar(status({ threads: { value: 1, auto: true } }));
    expect(bar.getByTestId('engine-threads').textContent).toBe('CPU threads: 1 (automatic)');

    await userEvent.click(bar.getByRole('button', { name: 'Change CPU threads' }));
    const form = within(bar.getByRole('form', { name: 'CPU threads' }));
    const automatic = form.getByRole('checkbox', { name: 'Automatic' }) as HTMLInputElement;
    const count = form.getByRole('textbox', { name: 'CPU threads' }) as HTMLInputElement;
    expect(automatic.checked).toBe(true);
    expect(document.activeElement).toBe(automatic);
    expect(count.disabled).toBe(true);
    expect(form.getByText(/Applies from the next load/)).toBeTruthy();
    expect(count.getAttribute('aria-describedby')).toBe('threads-hint');

    await userEvent.keyboard(' '); // Automatic off: the count is typed
    expect(count.disabled).toBe(false);
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    expect(form.getByText('Use a whole number from 1 to 256.')).toBeTruthy();
    expect(count.getAttribute('aria-invalid')).toBe('true');
    await userEvent.keyboard('{Enter}');
    expect(main.waiting('local.threads')).toEqual([]);

    await userEvent.clear(count);
    await userEvent.type(count, '4{Enter}');
    const set = await main.next('local.threads');
    expect(set.input).toEqual({ threads: 4 });
    expect(form.getByRole('button', { name: 'Saving…' })).toBeTruthy();
    await set.answer(status({ threads: { value: 4, auto: false } }));
    expect(bar.queryByRole('form', { name: 'CPU threads' })).toBeNull();
    expect(bar.getByTestId('engine-threads').textContent).toBe('CPU threads: 4');
    expect(document.activeElement).toBe(bar.getByRole('button', { name: 'Change CPU threads' }));

    await userEvent.keyboard('{Enter}'); // Change, from the keyboard
    const again = within(bar.getByRole('form', { name: 'CPU threads' }));
    expect(document.activeElement).toBe(again.getByRole('textbox', { name: 'CPU threads' }));
    expect((again.getByRole('textbox', { name: 'CPU threads' }) as HTMLInputElement).value).toBe('4');
    await userEvent.click(again.getByRole('checkbox', { name: 'Automatic' }));
    await userEvent.keyboard('{Enter}');
    const auto = await main.next('local.threads');
    expect(auto.input).toEqual({ threads: 0 });
    await auto.answer(status({ threads: { value: 7, auto: true } }));
    expect(bar.getByTestId('engine-threads').textContent).toBe('CPU threads: 7 (automatic)');
  });

  it('Escape and Cancel leave the count as it was without asking main; a refusal keeps the field open with why', async () => {
    const bar = await openBar(status({ threads: { value: 4, auto: false } }));
    await userEvent.click(bar.getByRole('button', { name: 'Change CPU threads' }));
    await userEvent.keyboard('{Backspace}8{Escape}');
    expect(bar.queryByRole('form', { name: 'CPU threads' })).toBeNull();
    expect(bar.getByTestId('engine-threads').textContent).toBe('CPU threads: 4');
    expect(document.activeElement).toBe(bar.getByRole('button', { name: 'Change CPU threads' }));

    await userEvent.click(bar.getByRole('button', { name: 'Change CPU threads' }));
    await userEvent.click(bar.getByRole('button', { name: 'Cancel' }));
    expect(bar.queryByRole('form', { name: 'CPU threads' })).toBeNull();
    expect(main.waiting('local.threads')).toEqual([]);

    await userEvent.click(bar.getByRole('button', { name: 'Change CPU threads' }));
    await userEvent.keyboard('{Backspace}2');
    await userEvent.click(bar.getByRole('button', { name: 'Save' }));
    const set = await main.next('local.threads');
    expect(set.input).toEqual({ threads: 2 });
    await set.fail({ code: 'unavailable', message: 'The engine could not save the thread count.' });
    const form = within(bar.getByRole('form', { name: 'CPU threads' }));
    expect(form.getByRole('alert').textContent).toBe('The engine could not save the thread count.');
    expect((form.getByRole('textbox', { name: 'CPU threads' }) as HTMLInputElement).value).toBe('2');
    expect(bar.queryByTestId('engine-threads')).toBeNull();
  });
});

describe('the engine bar: its process and what the loaded models are doing', () => {
  it('shows the engine process with its memory, and the last unexpected stop calmly with its time', async () => {
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    const message = 'The built-in engine stopped (llama.cpp ran out of memory).';
    const bar = await openBar(
      status({ started: true, gpu: 'cpu', host: { pid: 4242, rssBytes: 145_000_000 }, lastStop: { at, message } }),
    );
    const proc = bar.getByTestId('engine-process');
    expect(proc.textContent).toBe('Engine process · 145 MB');
    expect(proc.getAttribute('title')).toBe('Process id 4242');
    const stop = bar.getByRole('status');
    expect(stop.textContent).toBe(`Last unexpected stop, 5 min ago: ${message}`);
    expect(stop.querySelector('time')?.getAttribute('dateTime')).toBe(at);
    expect(bar.queryByRole('alert')).toBeNull(); // a note, not an error
  });

  it('without its memory the process is said to run; with no process and no stop neither is shown', async () => {
    const bar = await openBar(status({ started: true, host: { pid: 4242 } }));
    expect(bar.getByTestId('engine-process').textContent).toBe('Engine process · running');
    expect(bar.queryByTestId('engine-last-stop')).toBeNull();
    cleanup();
    const idle = await openBar(status());
    expect(idle.queryByTestId('engine-process')).toBeNull();
    expect(idle.queryByTestId('engine-last-stop')).toBeNull();
  });

  it('each loaded model says how many requests it answers at once, and while busy how many answer and wait', async () => {
    const idle = loadedModel({ id: 'a.gguf', name: 'idle-model', sequences: 4 });
    const single = loadedModel({ id: 'c.gguf', name: 'single-model', sequences: 1 });
    const busy = loadedModel({ id: 'b.gguf', name: 'busy-model', sequences: 4, busy: 2, waiting: 1 });
    const bar = await openBar(status({ started: true, loaded: [idle, single, busy] }));
    const activity = () =>
      bar.getAllByTestId('loaded-model').map((li) => within(li).getByTestId('loaded-activity').textContent);
    expect(activity()).toEqual(['4 at once', '1 at a time', '2 of 4 answering · 1 waiting']);
    expect(within(bar.getAllByTestId('loaded-model')[0]).getByText(/512 tokens · 0 GPU layers/)).toBeTruthy();

    await userEvent.click(bar.getByRole('button', { name: 'Unload idle-model' }));
    await (
      await main.next('local.unload')
    ).answer(status({ started: true, loaded: [single, { ...busy, busy: 1, waiting: 0 }] }));
    expect(activity()).toEqual(['1 at a time', '1 of 4 answering']);
  });
});
