import { useEffect } from 'react';
import { create } from 'zustand';
import { intendLink } from '../lib/link-intent';

/** The id of the result list the search box controls (one list is the search's answer at a time). */
export const SEARCH_LISTBOX_ID = 'search-results';
export const searchOptionId = (index: number) => `search-option-${index}`;

/** What the result list on screen lends the search box: its size, a way to bring a row in, and each row's link. */
export interface SearchList {
  count: number;
  scrollTo(index: number): void;
  href(index: number): string;
}

interface SearchListboxState {
  list?: SearchList;
  /** The result the arrow keys have reached (-1: none, the search box itself). */
  active: number;
  setList(list: SearchList | undefined): void;
  move(step: number): void;
  reset(): void;
}

/** The search box as a combobox: ↑/↓ move an active result in the list on screen; Enter opens it. */
export const useSearchListbox = create<SearchListboxState>((set, get) => ({
  active: -1,
  setList: (list) => set((s) => ({ list, active: list && s.active < list.count ? s.active : -1 })),
  move: (step) => {
    const { list, active } = get();
    if (!list || list.count === 0) return;
    const to = Math.max(-1, Math.min(list.count - 1, active + step));
    if (to >= 0) list.scrollTo(to);
    set({ active: to });
    // The active result is the one the user rests on, as the pointer on a link would be.
    intendLink(to >= 0 ? list.href(to) : undefined);
  },
  reset: () => set({ active: -1 }),
}));

/**
 * A result list registers itself as the search box's listbox while it is on screen, and gets the active row back
 * (`active` is -1 when the list is not the registered one).
 */
export function useSearchOptions(list: SearchList | undefined): number {
  const setList = useSearchListbox((s) => s.setList);
  useEffect(() => {
    setList(list);
    return () => {
      if (useSearchListbox.getState().list === list) setList(undefined);
    };
  }, [list, setList]);
  return useSearchListbox((s) => (s.list === list ? s.active : -1));
}

/** The attributes of row `index` of the search's listbox. */
export function optionProps(index: number, active: number, count: number) {
  return {
    id: searchOptionId(index),
    role: 'option',
    'aria-selected': index === active,
    'aria-setsize': count,
    'aria-posinset': index + 1,
    tabIndex: -1,
  } as const;
}
