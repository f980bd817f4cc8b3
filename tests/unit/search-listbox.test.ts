import { beforeEach, describe, expect, it } from 'vitest';
import { activeHref, useSearchListbox, type SearchList } from '../../renderer/src/store/search-listbox';

const list = (ids: string[]): SearchList => ({ count: ids.length, href: (i) => `#/catalogue/model/${ids[i]}` });
const store = () => useSearchListbox.getState();

describe('the search box’s active result is kept by identity', () => {
  beforeEach(() => useSearchListbox.setState({ lists: {}, active: undefined, held: undefined }));

  it('stays on its row while the "seen on the Hub" group grows, rows coming in before it too', () => {
    store().setList('embedded', list(['e0', 'e1']));
    store().setList('seen', list(['a', 'c']));
    store().move('last');
    expect(activeHref(store())).toBe('#/catalogue/model/c');
    store().setList('seen', list(['a', 'c', 'd'])); // appended
    expect(store().active).toMatchObject({ group: 'seen', index: 1 });
    store().setList('seen', list(['a', 'b', 'c', 'd'])); // one before it
    expect(store().active).toMatchObject({ group: 'seen', index: 2 });
    expect(activeHref(store())).toBe('#/catalogue/model/c');
    store().move('next');
    expect(activeHref(store())).toBe('#/catalogue/model/d');
  });

  it('brings the row into view where it now sits, when rows came in before it (a virtual list renders only that)', () => {
    const scrolled: number[] = [];
    const virtual = (ids: string[]): SearchList => ({ ...list(ids), scrollTo: (i) => scrolled.push(i) });
    store().setList('seen', virtual(['a', 'c']));
    store().move('last');
    scrolled.length = 0;
    store().setList('seen', virtual(['a', 'c', 'd']));
    expect(scrolled).toEqual([]);
    store().setList('seen', virtual(['z', 'a', 'c', 'd']));
    expect(scrolled).toEqual([2]);
  });

  it('holds it while its group is away for a moment (empty between two answers), and drops a row that is gone', () => {
    store().setList('seen', list(['a', 'b']));
    store().move('last');
    store().setList('seen', list([]));
    expect(store().active).toBeUndefined();
    store().setList('seen', undefined);
    store().setList('seen', list(['x', 'b']));
    expect(activeHref(store())).toBe('#/catalogue/model/b');
    store().setList('seen', list(['x', 'y']));
    expect(store().active).toBeUndefined();
    store().setList('seen', list(['b']));
    expect(store().active).toBeUndefined(); // gone once is gone: no later list brings it back
  });

  it('another group’s list leaves the active row alone; a move or a reset forgets a held one', () => {
    store().setList('embedded', list(['e0']));
    store().setList('seen', list(['a']));
    store().move('first');
    store().setList('seen', list(['a', 'b']));
    expect(store().active).toMatchObject({ group: 'embedded', index: 0 });
    store().move('last');
    store().setList('seen', undefined);
    store().reset();
    store().setList('seen', list(['b', 'a']));
    expect(store().active).toBeUndefined();
  });
});
