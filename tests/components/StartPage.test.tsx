// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HardwareView } from '@shared/contract/hardware';
import type { HubRepoSummary } from '@shared/contract/hub-search';
import type { SettingsView } from '@shared/contract/settings';
import { defaultContext, fitHardware, GiB, kvShapeFor, planQuants } from '@shared/fit';
import { buildCatalogue } from '../../electron/main/services/catalogue/build';
import { heldMain as main, type HeldCall } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { CataloguePage } = await import('../../renderer/src/pages/catalogue/CataloguePage');
const { catalogueView, useCatalogue } = await import('../../renderer/src/store/catalogue');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useHubSearch } = await import('../../renderer/src/store/hub-search');
const { RECENT_MAX, useRecent } = await import('../../renderer/src/store/recent');

const freshness = { source: 'network' as const, fetchedAt: '2026-11-25T10:00:00.000Z' };
const gguf = (id: string): HubRepoSummary => ({ kind: 'models', id, tags: ['gguf'] });
/** A CPU-only machine with 16 GiB of RAM (12.8 usable). */
const machine = { ramTotal: 16 * GiB, ramFree: 8 * GiB, gpus: [], unified: false };
const hardware: HardwareView = { detected: machine, effective: machine, probes: [], source: 'detected' };
const hubAccess = (access: 'online' | 'offline') =>
  useSettings.setState({ view: { values: { hubAccess: access }, secrets: [] } as unknown as SettingsView });

/** The start page's own list: trending GGUF repos (the Hub lists below it are the three plain searches). */
const trending = () =>
  vi.waitFor(() => {
    const c = main.waiting('hub.search').find((x) => x.input.runsLocally === 'gguf');
    if (!c) throw new Error('no trending GGUF search yet');
    return c;
  });
const modelCall = (id: string) =>
  vi.waitFor(() => {
    const c = main.waiting('hub.model').find((x: HeldCall) => x.input.id === id);
    if (!c) throw new Error(`no hub.model call for ${id} yet`);
    return c;
  });

beforeAll(() => useCatalogue.setState({ view: catalogueView(buildCatalogue('test')) }));
beforeEach(() => {
  main.reset();
  localStorage.clear();
  useRecent.setState({ pages: [] });
  useCatalogue.setState({ query: '', filters: {} });
  useHubSearch.setState({ kind: 'models', filters: {} });
  location.hash = '#/catalogue';
  hubAccess('online');
});
afterEach(cleanup);

describe('the online start page', () => {
  it('tasks, then trending GGUF repos with the verdict of the quant that suits this machine; unknown sizes said quietly', async () => {
    render(<CataloguePage />);
    expect(screen.getByTestId('task-groups')).toBeTruthy();
    const list = await trending();
    expect(list.input).toMatchObject({ kind: 'models', runsLocally: 'gguf', sort: 'trending' });
    expect(list.input.search).toBeUndefined();
    await list.answer({ results: [gguf('org/small-GGUF'), gguf('org/huge-GGUF'), gguf('org/bare-GGUF')], freshness });
    await (await main.next('system.hardware')).answer(hardware);

    const quants = (sizes: Record<string, number>) =>
      Object.entries(sizes).map(([label, size]) => ({ label, files: [`m-${label}.gguf`], size }));
    await (
      await modelCall('org/small-GGUF')
    ).answer({
      model: { id: 'org/small-GGUF', gguf: { total: 1.2e9, context_length: 131072 } },
      quants: quants({ Q4_K_M: 0.8 * GiB, Q8_0: 1.3 * GiB }),
      freshness,
    });
    await (
      await modelCall('org/huge-GGUF')
    ).answer({
      model: { id: 'org/huge-GGUF', gguf: { total: 70e9 } },
      quants: quants({ Q4_K_M: 40 * GiB, Q8_0: 70 * GiB }),
      freshness,
    });
    await (
      await modelCall('org/bare-GGUF')
    ).answer({ model: { id: 'org/bare-GGUF' }, quants: [{ label: 'Q4_K_M', files: ['a.gguf'] }], freshness });

    const row = (id: string) => within(screen.getByTestId('runs-here')).getByText(id).closest('li')!;
    // The quant the model page would pick for this machine (its header unread: the KV cache estimated).
    const small = quants({ Q4_K_M: 0.8 * GiB, Q8_0: 1.3 * GiB });
    const facts = { total: 1.2e9, context_length: 131072 };
    const pick = planQuants(small, fitHardware(machine), kvShapeFor(undefined, facts), defaultContext(131072));
    expect(row('org/small-GGUF').textContent).toMatch(new RegExp(`${pick.defaultLabel} · .*Fits in RAM \\(CPU\\)`));
    expect(row('org/huge-GGUF').textContent).toMatch(/Q4_K_M.*Too large/);
    expect(row('org/bare-GGUF').textContent).toMatch(/file sizes unknown/);
    expect(row('org/bare-GGUF').querySelector('[data-verdict]')).toBeNull();
    // Nothing opened yet: no "Recently used".
    expect(screen.queryByTestId('recently-used')).toBeNull();
  });

  it('a Hub error is a quiet line with Try again, not an alert; Try again asks again', async () => {
    render(<CataloguePage />);
    await (
      await trending()
    ).fail({ code: 'unavailable', message: 'The Hub at https://hf.example could not be reached.' });
    const runs = screen.getByTestId('runs-here');
    expect(within(runs).queryByRole('alert')).toBeNull();
    expect(within(runs).getByTestId('runs-here-error').textContent).toMatch(/The Hub did not answer/);
    await userEvent.click(within(runs).getByRole('button', { name: 'Try again' }));
    await (await trending()).answer({ results: [], freshness });
    expect(runs.textContent).toMatch(/no trending GGUF models/);
  });

  it('typing or a Hub filter leaves the start page for the results', async () => {
    render(<CataloguePage />);
    expect(screen.getByTestId('start-page')).toBeTruthy();
    await userEvent.type(screen.getByRole('combobox', { name: 'Search the catalogue' }), 'llama');
    expect(screen.queryByTestId('start-page')).toBeNull();
    await userEvent.clear(screen.getByRole('combobox', { name: 'Search the catalogue' }));
    expect(screen.getByTestId('start-page')).toBeTruthy();
    useHubSearch.getState().setFilters({ runsLocally: 'gguf' });
    await vi.waitFor(() => expect(screen.queryByTestId('start-page')).toBeNull());
  });

  it('offline, the landing stays the embedded catalogue: no start page and nothing asked', () => {
    hubAccess('offline');
    useRecent.getState().visit({ kind: 'model', id: 'org/seen' });
    render(<CataloguePage />);
    expect(screen.getByTestId('task-groups')).toBeTruthy();
    expect(screen.queryByTestId('runs-here')).toBeNull();
    expect(screen.queryByTestId('recently-used')).toBeNull();
    expect(main.waiting().filter((c) => c.name !== 'hub.search')).toEqual([]);
  });
});

describe('Recently used', () => {
  it('model and task pages opened, newest first, once each, kept in localStorage; Clear empties it', async () => {
    render(<CataloguePage />);
    location.hash = '#/catalogue/model/org%2Fone';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await vi.waitFor(() => expect(useRecent.getState().pages).toHaveLength(1));
    location.hash = '#/catalogue/task/text-generation';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await vi.waitFor(() => expect(useRecent.getState().pages).toHaveLength(2));
    location.hash = '#/catalogue/model/org%2Fone';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await vi.waitFor(() => expect(useRecent.getState().pages[0].id).toBe('org/one'));
    expect(useRecent.getState().pages).toEqual([
      { kind: 'model', id: 'org/one' },
      { kind: 'task', id: 'text-generation', label: 'Text Generation' },
    ]);
    expect(JSON.parse(localStorage.getItem('hubdesk.recent')!)).toEqual(useRecent.getState().pages);

    location.hash = '#/catalogue';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    const recent = await screen.findByTestId('recently-used');
    expect(
      within(recent)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['org/one', '#/catalogue/model/org%2Fone'],
      ['Text Generation', '#/catalogue/task/text-generation'],
    ]);
    await userEvent.click(within(recent).getByRole('button', { name: 'Clear this list' }));
    expect(screen.queryByTestId('recently-used')).toBeNull();
    expect(JSON.parse(localStorage.getItem('hubdesk.recent')!)).toEqual([]);
  });

  it(`keeps the last ${RECENT_MAX}`, () => {
    for (let i = 0; i < RECENT_MAX + 3; i++) useRecent.getState().visit({ kind: 'model', id: `org/m${i}` });
    const ids = useRecent.getState().pages.map((p) => p.id);
    expect(ids).toHaveLength(RECENT_MAX);
    expect(ids[0]).toBe(`org/m${RECENT_MAX + 2}`);
  });
});

describe('a task page online', () => {
  it('"Browse these on the Hub" opens the Hub list filtered by the task alone', async () => {
    useHubSearch.setState({ filters: { library: 'transformers' } });
    location.hash = '#/catalogue/task/automatic-speech-recognition';
    render(<CataloguePage />);
    const link = await screen.findByTestId('task-browse-hub');
    expect(link.textContent).toMatch(/Browse these on the Hub/);
    await userEvent.click(link);
    location.hash = '#/catalogue'; // where the link goes (jsdom may not follow it)
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await vi.waitFor(() => expect(screen.queryByTestId('hub-search')).not.toBeNull());
    expect(useHubSearch.getState().filters).toEqual({ task: 'automatic-speech-recognition' });
    expect(screen.queryByTestId('start-page')).toBeNull();
    await vi.waitFor(() =>
      expect(main.waiting('hub.search').find((c) => c.input.kind === 'models')?.input).toMatchObject({
        pipeline_tag: 'automatic-speech-recognition',
      }),
    );
  });

  it('offline, the task page has no Hub link', async () => {
    hubAccess('offline');
    location.hash = '#/catalogue/task/automatic-speech-recognition';
    render(<CataloguePage />);
    await screen.findByTestId('task-view');
    expect(screen.queryByTestId('task-browse-hub')).toBeNull();
  });
});
