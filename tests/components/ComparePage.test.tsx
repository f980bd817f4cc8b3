// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompareRun } from '@shared/contract/compare';
import type { SettingsView } from '@shared/contract/settings';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { useCompare } = await import('../../renderer/src/store/compare');
const { useCompareDraft } = await import('../../renderer/src/store/compare-draft');
const { useEndpoints } = await import('../../renderer/src/store/endpoints');
const { useSettings } = await import('../../renderer/src/store/settings');
const { ComparePage } = await import('../../renderer/src/pages/compare/ComparePage');

const plan = {
  mode: 'parallel' as const,
  reason: 'Both models fit in memory together (5.1 GB of 14.2 GB free).',
  panes: [],
};
const figures = { evalTokens: 12, tokensPerSecond: 41.5, ttftMs: 120, source: 'server' as const };

beforeEach(() => {
  main.reset();
  localStorage.clear();
  main.answer('chat.models', () => ({ models: [{ name: 'llama3.2:latest' }, { name: 'qwen3:8b' }] }));
  main.answer('local.models', () => ({ models: [], folders: [] }));
  main.answer('endpoints.list', () => ({ endpoints: [] }));
  main.answer('compare.plan', () => plan);
  main.answer('compare.recent', () => ({ runs: [] }));
  main.answer('compare.scoreboard', () => ({ machine: 'this machine', rows: [] }));
  main.answer('compare.sets', () => ({ sets: [] }));
  useEndpoints.setState({ list: undefined, error: undefined, listing: false });
  useSettings.setState({ view: { values: {}, secrets: [], bindings: [] } as unknown as SettingsView });
  useCompare.setState({ set: { panes: [], system: '', params: {}, repeat: 1, blind: false }, run: undefined });
  useCompare.getState().load({
    panes: [
      { backend: 'ollama', model: '' },
      { backend: 'ollama', model: '' },
    ],
  });
});
afterEach(cleanup);

async function pickBoth() {
  render(<ComparePage />);
  const editors = await screen.findAllByTestId('pane-editor');
  // Each pane lists Ollama's models once they are answered.
  for (const e of editors) await within(e).findByRole('option', { name: 'qwen3:8b' });
  await userEvent.selectOptions(within(editors[0]).getByLabelText('Model'), 'llama3.2:latest');
  await userEvent.selectOptions(within(editors[1]).getByLabelText('Model'), 'qwen3:8b');
}

describe('Compare page', () => {
  it('says the plan, streams both panes, and an error stays in its own pane', async () => {
    await pickBoth();
    expect((await screen.findByTestId('compare-plan')).textContent).toBe(`Run together: ${plan.reason}`);
    await userEvent.type(screen.getByTestId('compare-prompt'), 'Why?{Enter}');
    const s = await main.stream('compare.run');
    expect(s.input).toMatchObject({ prompt: 'Why?', panes: [{ model: 'llama3.2:latest' }, { model: 'qwen3:8b' }] });
    await s.events(
      {
        type: 'start',
        id: 'r_1',
        plan,
        slots: [{ label: 'Ollama · llama3.2:latest' }, { label: 'Ollama · qwen3:8b' }],
      },
      { type: 'state', slot: 0, run: 0, state: 'loading' },
      { type: 'state', slot: 1, run: 0, state: 'waiting' },
    );
    const panes = screen.getAllByTestId('compare-pane');
    expect(within(panes[0]).getByTestId('pane-state').textContent).toBe('Loading the model…');
    expect(within(panes[1]).getByTestId('pane-state').textContent).toBe('Waiting for its turn…');
    const error = { code: 'upstream' as const, message: 'model runner crashed' };
    await s.events(
      { type: 'loaded', slot: 0, loadMs: 900 },
      { type: 'state', slot: 0, run: 0, state: 'streaming' },
      { type: 'delta', slot: 0, run: 0, content: 'Because ' },
      { type: 'run-end', slot: 1, run: 0, answer: { content: '', status: 'error', error } },
      { type: 'state', slot: 1, run: 0, state: 'done' },
    );
    expect(screen.getAllByText('model runner crashed')).toHaveLength(1);
    expect(within(screen.getAllByTestId('compare-pane')[1]).getByTestId('pane-error')).toBeTruthy();
    expect(within(screen.getAllByTestId('compare-pane')[0]).getByTestId('pane-state').textContent).toBe('Answering…');
    const answer = { content: 'Because **light**.', status: 'complete' as const, figures };
    await s.events({ type: 'run-end', slot: 0, run: 0, answer }, { type: 'state', slot: 0, run: 0, state: 'done' });
    const run: CompareRun = {
      id: 'r_1',
      createdAt: '2026-11-26T00:00:00.000Z',
      prompt: 'Why?',
      system: '',
      params: {},
      repeat: 1,
      blind: false,
      plan,
      slots: [
        { label: 'Ollama · llama3.2:latest', loadMs: 900, answers: [answer], median: figures },
        { label: 'Ollama · qwen3:8b', answers: [{ content: '', status: 'error', error }] },
      ],
    };
    await s.end(run);
    const first = screen.getAllByTestId('compare-pane')[0];
    expect(within(first).getByTestId('pane-figures').textContent).toBe(
      'load 900 ms · first token 120 ms · 41.5 tok/s · 12 tokens',
    );
    expect(within(first).getByRole('button', { name: /Continue in chat/ })).toBeTruthy();
    expect(screen.getAllByText('model runner crashed')).toHaveLength(1);
  });

  it('Stop cancels the one stream and every pane keeps its text, marked stopped', async () => {
    await pickBoth();
    await userEvent.type(screen.getByTestId('compare-prompt'), 'Long{Enter}');
    const s = await main.stream('compare.run');
    await s.events(
      { type: 'start', id: 'r_2', plan, slots: [{ label: 'A' }, { label: 'B' }] },
      { type: 'state', slot: 0, run: 0, state: 'streaming' },
      { type: 'state', slot: 1, run: 0, state: 'streaming' },
      { type: 'delta', slot: 0, run: 0, content: 'one two' },
      { type: 'delta', slot: 1, run: 0, content: 'three four' },
    );
    await userEvent.click(screen.getByTestId('compare-stop'));
    expect(s.cancelled).toBe(true);
    const panes = await screen.findAllByTestId('pane-stopped');
    expect(panes).toHaveLength(2);
    const texts = screen.getAllByTestId('compare-pane').map((p) => p.querySelector('.markdown')?.textContent?.trim());
    expect(texts).toEqual(['one two', 'three four']);
    expect(screen.getByTestId('compare-send')).toBeTruthy();
  });

  it('keeps the picks when the page is opened again, and takes a handed-over set once', async () => {
    await pickBoth();
    cleanup();
    useCompare.setState({ set: { panes: [], system: '', params: {}, repeat: 1, blind: false } });
    // A fresh store reads what was kept.
    const kept = JSON.parse(localStorage.getItem('hubdesk.compare.set')!) as { panes: { model: string }[] };
    expect(kept.panes.map((p) => p.model)).toEqual(['llama3.2:latest', 'qwen3:8b']);
    useCompareDraft.getState().offer(
      {
        panes: [
          { backend: 'ollama', model: 'qwen3:8b' },
          { backend: 'ollama', model: 'qwen3:8b' },
        ],
      },
      'Q4 vs Q8',
    );
    render(<ComparePage />);
    const editors = await screen.findAllByTestId('pane-editor');
    expect((within(editors[0]).getByLabelText('Model') as HTMLSelectElement).value).toBe('qwen3:8b');
    expect(screen.getByText('Q4 vs Q8')).toBeTruthy();
    expect(useCompareDraft.getState().draft).toBeUndefined();
  });

  it('with no engine at all, says what to do instead of offering empty pickers', async () => {
    main.reset();
    main.answer('local.models', () => ({ models: [], folders: [] }));
    main.answer('endpoints.list', () => ({ endpoints: [] }));
    render(<ComparePage />);
    await (await main.next('chat.models')).fail({ code: 'unavailable', message: 'Ollama is not running.' });
    expect((await screen.findByRole('heading', { name: 'No engine to compare with yet' })).textContent).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings → Endpoints' }).getAttribute('href')).toBe('#/settings');
    expect(screen.queryByTestId('pane-editor')).toBeNull();
  });
});
