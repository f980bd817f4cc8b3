// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SettingsView } from '@shared/contract/settings';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { PullForm } = await import('../../renderer/src/pages/models/PullPanel');
const { usePulls } = await import('../../renderer/src/store/pulls');
const { useSettings } = await import('../../renderer/src/store/settings');

const box = () => screen.getByRole('combobox', { name: 'Model' });
const options = () =>
  within(screen.getByRole('listbox', { hidden: true }))
    .queryAllByRole('option')
    .map((o) => o.querySelector('.mono')!.textContent);
const active = () => {
  const id = box().getAttribute('aria-activedescendant');
  return id ? document.getElementById(id)!.querySelector('.mono')!.textContent : undefined;
};
const fresh = { source: 'network', fetchedAt: '2026-11-26T10:00:00.000Z' };
const hubRow = (id: string) => ({ kind: 'models', id, tags: ['gguf'] });
const setHub = (hubAccess: 'online' | 'offline') =>
  useSettings.setState({ view: { values: { hubAccess }, secrets: [] } as unknown as SettingsView });

beforeEach(() => {
  main.reset();
  usePulls.setState({ jobs: [], generation: 0 });
  setHub('offline');
});
afterEach(cleanup);

describe('Pull a model: suggestions as you type', () => {
  it('offers the Ollama library names; ↓/↑ move, Enter takes one, Enter again pulls it; Escape closes', async () => {
    render(<PullForm initial="" onDone={() => {}} />);
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(box().getAttribute('aria-controls')).toBe(screen.getByRole('listbox', { hidden: true }).id);

    await userEvent.type(box(), 'qwen');
    expect(box().getAttribute('aria-expanded')).toBe('true');
    expect(options()).toEqual(['qwen3:1.7b', 'qwen3:4b', 'qwen3:8b', 'qwen2.5-coder:7b']);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(active()).toBe('qwen3:4b');
    expect(screen.getByRole('option', { name: /qwen3:4b/ }).getAttribute('aria-selected')).toBe('true');

    await userEvent.keyboard('{Enter}');
    expect((box() as HTMLInputElement).value).toBe('qwen3:4b');
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(main.opened('ollama.pull')).toHaveLength(0);

    // ↓ reopens; Escape closes without taking anything.
    await userEvent.keyboard('{ArrowDown}');
    expect(box().getAttribute('aria-expanded')).toBe('true');
    await userEvent.keyboard('{Escape}');
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect((box() as HTMLInputElement).value).toBe('qwen3:4b');

    await userEvent.keyboard('{Enter}');
    expect((await main.stream('ollama.pull')).input).toEqual({ model: 'qwen3:4b' });
    // With Hub access off, the Hub was never asked.
    expect(main.waiting('hub.search')).toHaveLength(0);
  });

  it('with Hub access on: GGUF repos as hf.co/…, then the quants of the one taken; a late answer replaces nothing', async () => {
    setHub('online');
    render(<PullForm initial="" onDone={() => {}} />);
    await userEvent.type(box(), 'gemma');
    const first = await main.next('hub.search');
    expect(first.input).toMatchObject({ kind: 'models', search: 'gemma', runsLocally: 'gguf' });
    await userEvent.type(box(), '-3-1b');
    const second = await vi.waitFor(() => {
      const c = main.waiting('hub.search').find((x) => x.input.search === 'gemma-3-1b');
      if (!c) throw new Error('not asked yet');
      return c;
    });
    await second.answer({ kind: 'models', results: [hubRow('unsloth/gemma-3-1b-it-GGUF')], freshness: fresh });
    await first.answer({ kind: 'models', results: [hubRow('late/gemma-3-1b-old-GGUF')], freshness: fresh });
    expect(options()).toEqual(['hf.co/unsloth/gemma-3-1b-it-GGUF']);

    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect((box() as HTMLInputElement).value).toBe('hf.co/unsloth/gemma-3-1b-it-GGUF');
    // The repo's quants come next, from its file list, in the list left open for them.
    const model = await main.next('hub.model');
    expect(model.input).toEqual({ id: 'unsloth/gemma-3-1b-it-GGUF' });
    await model.answer({
      model: { id: 'unsloth/gemma-3-1b-it-GGUF', tags: [] },
      freshness: fresh,
      quants: [
        { label: 'Q4_K_M', files: ['gemma-3-1b-it-Q4_K_M.gguf'], size: 806_058_496 },
        { label: 'Q8_0', files: ['gemma-3-1b-it-Q8_0.gguf'], size: 1_069_306_368 },
      ],
    });
    expect(options()).toEqual(['hf.co/unsloth/gemma-3-1b-it-GGUF:Q4_K_M', 'hf.co/unsloth/gemma-3-1b-it-GGUF:Q8_0']);
    expect(screen.getByRole('option', { name: /Q4_K_M/ }).textContent).toMatch(/806 MB/);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect((box() as HTMLInputElement).value).toBe('hf.co/unsloth/gemma-3-1b-it-GGUF:Q4_K_M');
    expect(box().getAttribute('aria-expanded')).toBe('false');
  });
});
