// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HubRepoSummary } from '@shared/contract/hub-search';
import type { SettingsView } from '@shared/contract/settings';
import type { HubKind } from '@shared/hub-kinds';
import { buildCatalogue } from '../../electron/main/services/catalogue/build';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { CataloguePage } = await import('../../renderer/src/pages/catalogue/CataloguePage');
const { catalogueView, useCatalogue } = await import('../../renderer/src/store/catalogue');
const { useSettings } = await import('../../renderer/src/store/settings');
const { useHubSearch } = await import('../../renderer/src/store/hub-search');
const { useSearchFocus } = await import('../../renderer/src/store/search-focus');
const { useSearchListbox } = await import('../../renderer/src/store/search-listbox');
const { INTENT_MS } = await import('../../renderer/src/lib/link-intent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const freshness = { source: 'network' as const, fetchedAt: '2026-11-25T10:00:00.000Z' };
const repo = (kind: HubKind, id: string): HubRepoSummary => ({ kind, id, tags: [], downloads: 10, likes: 1 });
const hubAccess = (access: 'online' | 'offline') =>
  useSettings.setState({ view: { values: { hubAccess: access }, secrets: [] } as unknown as SettingsView });
const box = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Search the catalogue' });
const activeOption = () => {
  const id = box().getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};
/** The Hub list's searches waiting (the online start page's trending GGUF list is its own, answered or not). */
const listSearches = () => main.waiting('hub.search').filter((c) => c.input.runsLocally === undefined);
/** How many embedded tasks and libraries (chips) sit before the Hub's rows in the search's list. */
const chipCount = () => {
  const chips = screen.queryByRole('group', { name: 'Tasks and libraries' });
  return chips ? within(chips).getAllByRole('option').length : 0;
};
/** The Hub's first pages for the current query: answers the waiting search of each kind. */
async function hubAnswers(answer: (kind: HubKind) => HubRepoSummary[] | Error) {
  await vi.waitFor(() => expect(listSearches()).toHaveLength(3));
  for (const call of listSearches()) {
    const a = answer(call.input.kind as HubKind);
    if (a instanceof Error) await call.fail({ code: 'unavailable', message: a.message });
    else await call.answer({ results: a, freshness });
  }
}

beforeAll(() => {
  useCatalogue.setState({ view: catalogueView(buildCatalogue('test')) });
  // jsdom lays nothing out: the result lists get a height, so their virtual rows render as in a window.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('cat-results') ? 600 : 0;
    },
  });
});
afterAll(() => Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight'));
beforeEach(() => {
  main.reset();
  useCatalogue.setState({ query: '', filters: {} });
  useHubSearch.setState({
    kind: 'models',
    byKind: Object.fromEntries(
      ['models', 'datasets', 'spaces'].map((k) => [
        k,
        { results: [], refreshing: false, loading: false, answered: false },
      ]),
    ) as never,
  });
  useSearchListbox.setState({ active: undefined });
  location.hash = '#/catalogue';
});
afterEach(cleanup);

describe('Catalogue search, Hub access off: the embedded catalogue', () => {
  beforeEach(() => hubAccess('offline'));

  it('↓/↑ move the active result from the search box, Enter opens it, focus never leaves the box', async () => {
    main.answer('hub.search', () =>
      Promise.reject({ code: 'unavailable', message: 'off', details: { reason: 'hub-off' } }),
    );
    render(<CataloguePage />);
    await userEvent.type(box(), 'whisper');
    const results = await screen.findByRole('group', { name: 'Results in the embedded catalogue' });
    const options = within(results).getAllByRole('option');
    expect(options.length).toBeGreaterThan(1);
    expect(box().getAttribute('aria-expanded')).toBe('true');
    expect(activeOption()).toBeNull();

    await userEvent.keyboard('{ArrowDown}');
    expect(activeOption()).toBe(options[0]);
    expect(options[0].getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(activeOption()).toBe(options[1]);
    expect(document.activeElement).toBe(box());

    await userEvent.keyboard('{Enter}');
    expect(location.hash).toBe(options[1].getAttribute('href'));
  });

  it('Esc steps back: out of the list, then clears the query, then returns where Ctrl+K came from', async () => {
    main.answer('hub.search', () =>
      Promise.reject({ code: 'unavailable', message: 'off', details: { reason: 'hub-off' } }),
    );
    render(<CataloguePage />);
    useSearchFocus.getState().focus('#/models');
    await userEvent.type(box(), 'whisper');
    await screen.findByRole('group', { name: 'Results in the embedded catalogue' });
    await userEvent.keyboard('{ArrowDown}');
    expect(activeOption()).not.toBeNull();

    await userEvent.keyboard('{Escape}');
    expect(activeOption()).toBeNull();
    expect(box().value).toBe('whisper');
    await userEvent.keyboard('{Escape}');
    expect(box().value).toBe('');
    await userEvent.keyboard('{Escape}');
    expect(location.hash).toBe('#/models');
  });

  it('nothing found says so; the Hub (off, nothing cached) adds no section', async () => {
    main.answer('hub.search', () =>
      Promise.reject({ code: 'unavailable', message: 'off', details: { reason: 'hub-off' } }),
    );
    render(<CataloguePage />);
    await userEvent.type(box(), 'qqqqzzzzxxxx');
    expect(await screen.findByText('Nothing matches')).toBeTruthy();
    expect(screen.getByTestId('result-count').textContent).toBe('0 results in the embedded catalogue');
    await userEvent.keyboard('{ArrowDown}');
    expect(activeOption()).toBeNull();
    await vi.waitFor(() => expect(useHubSearch.getState().byKind.models.error).toBeDefined());
    expect(screen.queryByTestId('hub-search')).toBeNull();
  });
});

describe('Catalogue search, Hub access on: the Hub list is the result list', () => {
  beforeEach(() => hubAccess('online'));

  it('searching, then the Hub’s rows: ↓ reaches them from the box and Enter opens the model page', async () => {
    render(<CataloguePage />);
    expect(screen.getByText('Searching the Hub’s models…')).toBeTruthy();
    await hubAnswers(() => []); // the empty query's first pages
    await userEvent.type(box(), 'llama');
    await vi.waitFor(() => expect(listSearches()).toHaveLength(3));
    expect(listSearches()[0].input).toMatchObject({ search: 'llama' });

    await hubAnswers((kind) => [repo(kind, `meta/llama-${kind}-1`), repo(kind, `meta/llama-${kind}-2`)]);
    const list = screen.getByRole('group', { name: 'Models on the Hub' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.dataset.id),
    ).toEqual(['meta/llama-models-1', 'meta/llama-models-2']);
    expect(screen.getByTestId('hub-tab-datasets').textContent).toMatch(/2$/);
    // The embedded tasks and libraries come first in the list: ↓ goes through them to the Hub's rows.
    await userEvent.keyboard('{ArrowDown}'.repeat(chipCount() + 2));
    expect(activeOption()?.dataset.id).toBe('meta/llama-models-2');
    await userEvent.keyboard('{Enter}');
    expect(location.hash).toBe('#/catalogue/model/meta%2Fllama-models-2');
  });

  it('an empty answer says nothing matches; a failed one shows the error with Try again', async () => {
    render(<CataloguePage />);
    await hubAnswers(() => []);
    await userEvent.type(box(), 'nothing-like-this');
    await hubAnswers((kind) => (kind === 'models' ? [] : new Error('The Hub is unreachable.')));
    expect(screen.getByTestId('hub-empty').textContent).toMatch(/No models on the Hub match/);
    await userEvent.keyboard('{ArrowDown}');
    expect(activeOption()).toBeNull();

    await userEvent.click(screen.getByTestId('hub-tab-datasets'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/The Hub datasets search failed/);
    expect(alert.textContent).toMatch(/The Hub is unreachable\./);
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(listSearches()).toHaveLength(1));
    const again = listSearches()[0];
    expect(again.input).toMatchObject({ kind: 'datasets', search: 'nothing-like-this' });
    await again.answer({ results: [repo('datasets', 'org/found')], freshness });
    expect(screen.getByRole('group', { name: 'Datasets on the Hub' }).textContent).toMatch(/org\/found/);
  });

  it('a late answer for an earlier query does not replace the rows of the current one', async () => {
    render(<CataloguePage />);
    await hubAnswers(() => []);
    await userEvent.type(box(), 'a');
    await vi.waitFor(() => expect(listSearches()).toHaveLength(3));
    const early = listSearches().find((c) => c.input.kind === 'models')!;
    await userEvent.type(box(), 'b');
    await vi.waitFor(() => expect(listSearches()).toHaveLength(6));
    const late = listSearches().findLast((c) => c.input.kind === 'models')!;
    expect(late.input).toMatchObject({ search: 'ab' });
    await late.answer({ results: [repo('models', 'org/ab')], freshness });
    await early.answer({ results: [repo('models', 'org/a')], freshness });
    const list = screen.getByRole('group', { name: 'Models on the Hub' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.dataset.id),
    ).toEqual(['org/ab']);
  });

  it('resting on a result starts its page’s calls; passing over one does not', async () => {
    render(<CataloguePage />);
    await hubAnswers(() => []);
    await userEvent.type(box(), 'qwen');
    await hubAnswers((kind) => [1, 2, 3].map((i) => repo(kind, `org/${kind}-${i}`)));
    const rows = within(screen.getByRole('group', { name: 'Models on the Hub' })).getAllByRole('option');
    const asked = () => main.waiting().filter((c) => c.name !== 'hub.search');

    // The pointer crosses row 1 on its way to row 2 and rests there.
    await userEvent.hover(rows[0]);
    await userEvent.hover(rows[1]);
    await sleep(INTENT_MS * 2);
    expect(asked().map((c) => [c.name, c.input])).toEqual([
      ['hub.model', { id: 'org/models-2' }],
      ['hub.readme', { kind: 'model', id: 'org/models-2' }],
    ]);

    // From the search box, ↓ to a result: the same once the active option stays.
    await userEvent.unhover(rows[1]);
    box().focus();
    await userEvent.keyboard('{ArrowDown}'.repeat(chipCount() + 3));
    await sleep(INTENT_MS * 2);
    expect(asked().map((c) => c.input.id)).toEqual(['org/models-2', 'org/models-2', 'org/models-3', 'org/models-3']);

    // A dataset's row asks for the dataset's details and card.
    await userEvent.click(screen.getByTestId('hub-tab-datasets'));
    await userEvent.hover(within(screen.getByRole('group', { name: 'Datasets on the Hub' })).getAllByRole('option')[0]);
    await sleep(INTENT_MS * 2);
    expect(
      asked()
        .slice(4)
        .map((c) => [c.name, c.input]),
    ).toEqual([
      ['hub.repo', { kind: 'dataset', id: 'org/datasets-1' }],
      ['hub.readme', { kind: 'dataset', id: 'org/datasets-1' }],
    ]);
  });
});
