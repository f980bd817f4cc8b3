/** A position in a list made of groups: the group's key and a row in it. */
export interface ListPos<K extends string = string> {
  group: K;
  index: number;
}

/** One group of the list, in the order shown. */
export interface GroupSize<K extends string = string> {
  key: K;
  count: number;
}

/** The keys that move through the list: ↓, ↑, Home, End. */
export type NavMove = 'next' | 'prev' | 'first' | 'last';

/** Where `pos` sits in the flat list (-1: nowhere, e.g. its group is gone or has shrunk below it). */
export function flatIndex<K extends string>(groups: readonly GroupSize<K>[], pos: ListPos<K> | undefined): number {
  if (!pos) return -1;
  let before = 0;
  for (const g of groups) {
    if (g.key === pos.group) return pos.index >= 0 && pos.index < g.count ? before + pos.index : -1;
    before += g.count;
  }
  return -1;
}

/** The position of row `flat` of the flat list (undefined: outside it). */
export function posAt<K extends string>(groups: readonly GroupSize<K>[], flat: number): ListPos<K> | undefined {
  if (flat < 0) return undefined;
  let rest = flat;
  for (const g of groups) {
    if (rest < g.count) return { group: g.key, index: rest };
    rest -= g.count;
  }
  return undefined;
}

/**
 * One key press in the list, across its groups as one sequence. Undefined is the box itself: ↑ from the first row
 * goes back to it; ↓ from the box reaches the first row; ↓ on the last row stays there.
 */
export function navigate<K extends string>(
  groups: readonly GroupSize<K>[],
  pos: ListPos<K> | undefined,
  move: NavMove,
): ListPos<K> | undefined {
  const total = groups.reduce((n, g) => n + g.count, 0);
  if (total === 0) return undefined;
  const at = flatIndex(groups, pos);
  const to = {
    next: Math.min(total - 1, at + 1),
    prev: at - 1,
    first: 0,
    last: total - 1,
  }[move];
  return posAt(groups, to);
}
