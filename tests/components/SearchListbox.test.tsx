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
const { useSearchListbox } = await import('../../renderer/src/store/search-listbox');

const network = { source: 'network' as const, fetchedAt: '2026-11-25T10:00:00.000Z' };
const cache = { source: 'cache' as const, fetchedAt: '2026-11-25T10:00:00.000Z', reason: 'Hub access is off' };
const hubOff = { code: 'unavailable', message: 'off', details: { reason: 'hub-off' } };
const repo = (kind: HubKind, id: string): HubRepoSummary => ({ kind, id, tags: [], downloads: 10, likes: 1 });
const hubAccess = (access: 'online' | 'offline') =>
  useSettings.setState({ view: { values: { hubAccess: access }, secrets: [] } as unknown as SettingsView });
const box = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Search the catalogue' });
const activeId = () => box().getAttribute('aria-activedescendant');
const press = (key: string, times = 1) => userEvent.keyboard(`{${key}}`.repeat(times));
const options = (group: string) => within(screen.getByRole('group', { name: group })).getAllByRole('option');

/** The combobox's ARIA as a screen reader meets it: its listbox exists and owns each group, which exists. */
function comboboxState() {
  const controls = box().getAttribute('aria-controls');
  const listbox = controls ? document.getElementById(controls) : null;
  const owned = (listbox?.getAttribute('aria-owns') ?? '').split(' ').filter(Boolean);
  return {
    expanded: box().getAttribute('aria-expanded'),
    listbox: listbox?.getAttribute('role') ?? null,
    groups: owned.map((id) => {
      const g = document.getElementById(id);
      return `${g?.getAttribute('role')}: ${g?.getAttribute('aria-label')}`;
    }),
  };
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

describe('one keyboard list across the result groups', () => {
  it('Hub mode: the chips, then the Hub rows; Home/End, ↑ back across; Enter opens; the box clears on that page', async () => {
    hubAccess('online');
    main.answer('hub.search', (input) => ({
      results: input.search ? [1, 2].map((i) => repo(input.kind as HubKind, `org/speech-${i}`)) : [],
      freshness: network,
    }));
    render(<CataloguePage />);
    expect(comboboxState()).toEqual({ expanded: 'false', listbox: null, groups: [] });
    await userEvent.type(box(), 'speech');
    await screen.findByRole('group', { name: 'Models on the Hub' });
    expect(comboboxState()).toEqual({
      expanded: 'true',
      listbox: 'listbox',
      groups: ['group: Tasks and libraries', 'group: Models on the Hub'],
    });
    const chips = options('Tasks and libraries');
    const rows = options('Models on the Hub');
    expect(chips.length).toBeGreaterThan(1);
    const all = [...chips, ...rows];
    expect(new Set(all.map((o) => o.id)).size).toBe(all.length);

    // ↓ from the box visits every option once, in the order shown, and stops on the last.
    const seen: (string | null)[] = [];
    for (let i = 0; i <= all.length; i++) {
      await press('ArrowDown');
      seen.push(activeId());
    }
    expect(seen).toEqual([...all.map((o) => o.id), rows.at(-1)!.id]);
    expect(document.querySelectorAll('[role="option"][aria-selected="true"]')).toHaveLength(1);
    await press('Home');
    expect(activeId()).toBe(chips[0].id);
    await press('End');
    expect(activeId()).toBe(rows[1].id);
    await press('ArrowUp', 2);
    expect(activeId()).toBe(chips.at(-1)!.id);
    expect(document.activeElement).toBe(box());

    await press('Enter');
    expect(location.hash).toBe(chips.at(-1)!.getAttribute('href'));
    await vi.waitFor(() => expect(box().value).toBe(''));
    expect(comboboxState()).toEqual({ expanded: 'false', listbox: null, groups: [] });
    // Back on the results: the query and its list are there again, with no active row.
    location.hash = '#/catalogue';
    await vi.waitFor(() => expect(box().value).toBe('speech'));
    expect(activeId()).toBeNull();
  });

  it('Hub mode: the pointer over a row does not move the keyboard’s active row', async () => {
    hubAccess('online');
    main.answer('hub.search', (input) => ({
      results: input.search ? [1, 2, 3].map((i) => repo(input.kind as HubKind, `org/qq-${i}`)) : [],
      freshness: network,
    }));
    render(<CataloguePage />);
    await userEvent.type(box(), 'zzqqzz');
    await screen.findByRole('group', { name: 'Models on the Hub' });
    expect(screen.queryByRole('group', { name: 'Tasks and libraries' })).toBeNull();
    const rows = options('Models on the Hub');
    await press('ArrowDown');
    await userEvent.hover(rows[2]);
    expect(activeId()).toBe(rows[0].id);
    await press('ArrowDown');
    expect(activeId()).toBe(rows[1].id);
  });

  it('offline: the embedded rows, then the rows seen on the Hub (cached); ↑ crosses back; Enter opens', async () => {
    hubAccess('offline');
    main.answer('hub.search', (input) =>
      input.kind === 'models' && input.search === 'whisper'
        ? { results: [repo('models', 'openai/whisper-a'), repo('models', 'openai/whisper-b')], freshness: cache }
        : Promise.reject(hubOff),
    );
    render(<CataloguePage />);
    await userEvent.type(box(), 'whisper');
    await screen.findByRole('group', { name: 'Models seen on the Hub' });
    expect(comboboxState()).toEqual({
      expanded: 'true',
      listbox: 'listbox',
      groups: ['group: Results in the embedded catalogue', 'group: Models seen on the Hub'],
    });
    const embedded = Number(/^(\d+)/.exec(screen.getByTestId('result-count').textContent!)![1]);
    expect(embedded).toBeGreaterThan(0);

    await press('End');
    expect(activeId()).toBeNull(); // Home/End move the caret until the list is entered
    await press('ArrowDown');
    expect(activeId()).toBe('search-option-embedded-0');
    await press('End');
    expect(activeId()).toBe('search-option-seen-1');
    await press('ArrowUp', 2);
    expect(activeId()).toBe(`search-option-embedded-${embedded - 1}`);
    await press('ArrowDown');
    const row = document.getElementById(activeId()!)!;
    expect(row.dataset.id).toBe('openai/whisper-a');
    expect(row.getAttribute('aria-selected')).toBe('true');
    await press('Enter');
    expect(location.hash).toBe('#/catalogue/model/openai%2Fwhisper-a');
  });
});
