import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import type { NavMove } from '../../lib/listbox-nav';
import { useCatalogue } from '../../store/catalogue';
import { useRoute } from '../../store/route';
import { SEARCH_INPUT_ID, useSearchFocus } from '../../store/search-focus';
import {
  activeHref,
  SEARCH_LISTBOX_ID,
  searchGroupId,
  searchOptionId,
  shownGroups,
  useSearchListbox,
} from '../../store/search-listbox';
import './search.css';

const moves: Partial<Record<string, NavMove>> = { ArrowDown: 'next', ArrowUp: 'prev', Home: 'first', End: 'last' };

/**
 * The catalogue's search box, a combobox (WAI-ARIA 1.2): focus stays here while ↓/↑ (and Home/End once in the list)
 * move one active result through every result group on screen, Enter opens it, Escape steps back: first out of the
 * list, then clears the query, then returns to the page Ctrl/Cmd+K came from.
 *
 * On a detail page the box is empty: the page it opened is not its results. The query is kept for the way back, so
 * Back shows the results again; typing starts a new search.
 */
export function SearchBox({ hubOn, detail }: { hubOn: boolean; detail: boolean }) {
  const { query, setQuery } = useCatalogue();
  const go = useRoute((s) => s.go);
  const focusRequest = useSearchFocus((s) => s.request);
  // Strings, so the box re-renders only when what it says changes.
  const owns = useSearchListbox((s) =>
    shownGroups(s.lists)
      .map((g) => searchGroupId(g.key))
      .join(' '),
  );
  const activeId = useSearchListbox((s) => s.active && searchOptionId(s.active.group, s.active.index));
  const { move, reset } = useSearchListbox.getState();
  const input = useRef<HTMLInputElement>(null);
  const value = detail ? '' : query;
  const expanded = !detail && owns !== '';
  // Ctrl/Cmd+K: the box takes the focus with its text selected, so typing starts a new search. In the commit itself:
  // a key typed between the box appearing and a later effect would land in the old text, then be selected away.
  useLayoutEffect(() => {
    if (!focusRequest) return;
    input.current?.focus();
    input.current?.select();
  }, [focusRequest]);
  // A new query, or another page, starts again from the box.
  useEffect(() => reset(), [query, detail, reset]);
  // The active row comes into view, page and all (its own list has scrolled it in already when it is virtual).
  useEffect(() => {
    if (!activeId) return;
    const frame = requestAnimationFrame(() =>
      document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [activeId]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const step = moves[e.key];
    // Home/End move the caret until the list has been entered.
    if (step && expanded && (activeId || step === 'next' || step === 'prev')) {
      e.preventDefault();
      move(step);
    } else if (e.key === 'Enter' && activeId) {
      e.preventDefault();
      const href = activeHref(useSearchListbox.getState());
      reset();
      if (href) location.hash = href;
    } else if (e.key === 'Escape') {
      e.preventDefault();
      if (activeId) reset();
      else if (value) setQuery('');
      else {
        const back = useSearchFocus.getState().takeReturn();
        if (back) location.hash = back;
      }
    }
  };

  return (
    <>
      <input
        ref={input}
        id={SEARCH_INPUT_ID}
        className="search"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={expanded ? SEARCH_LISTBOX_ID : undefined}
        aria-activedescendant={expanded ? activeId : undefined}
        placeholder={
          hubOn ? 'Search the Hub’s models, datasets, Spaces…  (Ctrl+K)' : 'Search tasks, libraries, models…  (Ctrl+K)'
        }
        aria-label="Search the catalogue"
        value={value}
        onChange={(e) => {
          setQuery(e.target.value);
          if (detail) go('catalogue');
        }}
        onKeyDown={onKeyDown}
      />
      {/* The one listbox: the groups stay where they are shown (between them sit tabs and filters), owned here. */}
      {expanded && (
        <div id={SEARCH_LISTBOX_ID} role="listbox" aria-label="Search results" aria-owns={owns} className="sr-only" />
      )}
    </>
  );
}
