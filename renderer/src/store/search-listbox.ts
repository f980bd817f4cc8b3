import { useEffect } from 'react';
import { create } from 'zustand';
import { intendLink } from '../lib/link-intent';
import { navigate, type GroupSize, type ListPos, type NavMove } from '../lib/listbox-nav';

/** The id of the search box's one listbox: it owns (aria-owns) the result groups wherever they sit on the page. */
export const SEARCH_LISTBOX_ID = 'search-results';

/** The search's result groups, in the order shown: Hub mode's chips and rows, offline's embedded and cached rows. */
export const searchGroups = ['chips', 'hub', 'embedded', 'seen'] as const;
export type SearchGroup = (typeof searchGroups)[number];

export const searchGroupId = (group: SearchGroup) => `search-group-${group}`;
export const searchOptionId = (group: SearchGroup, index: number) => `search-option-${group}-${index}`;

/** What a result group on screen lends the search box: its size, a way to bring a row in, and each row's link. */
export interface SearchList {
  count: number;
  /** Brings row `index` into its scroller (a virtual list renders it there); plain lists need none. */
  scrollTo?(index: number): void;
  href(index: number): string;
}

type ActivePos = ListPos<SearchGroup> & { href?: string };

/** Where the row linking to `href` now sits in `list` (its old `index` first), or -1. */
function findRow(list: SearchList, href: string | undefined, index: number): number {
  if (href === undefined) return index < list.count ? index : -1;
  if (index < list.count && list.href(index) === href) return index;
  for (let i = 0; i < list.count; i++) if (list.href(i) === href) return i;
  return -1;
}

/**
 * A group's new list: the active row is kept by identity, not by index (rows may come in before it as the group
 * grows), and held while the group is away for a moment, to come back with it.
 */
function relist(s: Pick<SearchListboxState, 'lists' | 'active' | 'held'>, group: SearchGroup, list?: SearchList) {
  const lists = { ...s.lists, [group]: list };
  const mine = s.active?.group === group ? s.active : undefined;
  const target = mine?.href ?? (s.held?.group === group ? s.held.href : undefined);
  if (!mine && target === undefined) return { lists };
  const active = mine ? undefined : s.active;
  if (!list || list.count === 0)
    return { lists, active, held: target === undefined ? undefined : { group, href: target } };
  const index = findRow(list, target, mine?.index ?? 0);
  if (index < 0) return { lists, active, held: undefined };
  // Moved (rows came in before it) or back: a virtual list renders it only where it is scrolled to.
  if (index !== mine?.index) list.scrollTo?.(index);
  return { lists, active: { group, index, href: target }, held: undefined };
}

interface SearchListboxState {
  lists: Partial<Record<SearchGroup, SearchList>>;
  /** The result the arrow keys have reached (undefined: none, the search box itself), with its link: its identity. */
  active?: ActivePos;
  /** The active result of a group that is away for a moment (re-searching, empty between two answers). */
  held?: { group: SearchGroup; href: string };
  setList(group: SearchGroup, list: SearchList | undefined): void;
  move(move: NavMove): void;
  reset(): void;
}

/** The groups on screen with at least one row, in order. */
export function shownGroups(lists: SearchListboxState['lists']): GroupSize<SearchGroup>[] {
  return searchGroups.flatMap((key) => {
    const count = lists[key]?.count ?? 0;
    return count > 0 ? [{ key, count }] : [];
  });
}

/** The active result's link, if any. */
export function activeHref(s: Pick<SearchListboxState, 'lists' | 'active'>): string | undefined {
  return s.active && s.lists[s.active.group]?.href(s.active.index);
}

/** The search box as a combobox: ↑/↓/Home/End move one active result through every group; Enter opens it. */
export const useSearchListbox = create<SearchListboxState>((set, get) => ({
  lists: {},
  setList: (group, list) => set((s) => relist(s, group, list)),
  move: (move) => {
    const { lists, active } = get();
    const to = navigate(shownGroups(lists), active, move);
    if (to) lists[to.group]?.scrollTo?.(to.index);
    const href = activeHref({ lists, active: to });
    set({ active: to && { ...to, href }, held: undefined });
    // The active result is the one the user rests on, as the pointer on a link would be.
    intendLink(href);
  },
  reset: () => set({ active: undefined, held: undefined }),
}));

/**
 * A result group registers itself with the search box while it is on screen (undefined or empty: none), and gets
 * its active row back (-1: none in this group). A new list for the same group keeps the active row where it now is.
 */
export function useSearchOptions(group: SearchGroup, list: SearchList | undefined): number {
  const setList = useSearchListbox((s) => s.setList);
  useEffect(() => setList(group, list), [group, list, setList]);
  useEffect(() => () => setList(group, undefined), [group, setList]);
  return useSearchListbox((s) => (s.active?.group === group ? s.active.index : -1));
}

/** The attributes of a result group's element. */
export const groupProps = (group: SearchGroup, label: string) =>
  ({ id: searchGroupId(group), role: 'group', 'aria-label': label }) as const;

/** The attributes of row `index` of a group (`count` -1: its size is not known yet). */
export function optionProps(group: SearchGroup, index: number, active: number, count: number) {
  return {
    id: searchOptionId(group, index),
    role: 'option',
    'aria-selected': index === active,
    'aria-setsize': count,
    'aria-posinset': index + 1,
    tabIndex: -1,
  } as const;
}
