import { describe, expect, it } from 'vitest';
import { flatIndex, navigate, posAt, type ListPos } from '../../renderer/src/lib/listbox-nav';

const groups = [
  { key: 'chips', count: 2 },
  { key: 'hub', count: 3 },
];

describe('listbox-nav: one sequence across groups', () => {
  it('maps positions to and from the flat list; a gone or shrunk group is nowhere', () => {
    expect(flatIndex(groups, { group: 'hub', index: 1 })).toBe(3);
    expect(posAt(groups, 3)).toEqual({ group: 'hub', index: 1 });
    expect(posAt(groups, 5)).toBeUndefined();
    expect(flatIndex(groups, { group: 'hub', index: 3 })).toBe(-1);
    expect(flatIndex(groups, { group: 'seen', index: 0 })).toBe(-1);
    expect(flatIndex(groups, undefined)).toBe(-1);
  });

  it('↓ walks every row in order and stays on the last; ↑ goes back to the box; Home/End jump', () => {
    let pos: ListPos | undefined;
    const walk: (ListPos | undefined)[] = [];
    for (let i = 0; i < 6; i++) walk.push((pos = navigate(groups, pos, 'next')));
    expect(walk.map((p) => p && `${p.group}${p.index}`)).toEqual(['chips0', 'chips1', 'hub0', 'hub1', 'hub2', 'hub2']);
    expect(navigate(groups, { group: 'hub', index: 0 }, 'prev')).toEqual({ group: 'chips', index: 1 });
    expect(navigate(groups, { group: 'chips', index: 0 }, 'prev')).toBeUndefined();
    expect(navigate(groups, undefined, 'prev')).toBeUndefined();
    expect(navigate(groups, { group: 'hub', index: 2 }, 'first')).toEqual({ group: 'chips', index: 0 });
    expect(navigate(groups, undefined, 'last')).toEqual({ group: 'hub', index: 2 });
    expect(navigate([], undefined, 'next')).toBeUndefined();
    // A position whose group went away starts again from the box.
    expect(navigate(groups, { group: 'seen', index: 4 }, 'next')).toEqual({ group: 'chips', index: 0 });
  });
});
