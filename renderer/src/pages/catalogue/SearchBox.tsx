import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useCatalogue } from '../../store/catalogue';
import { useRoute } from '../../store/route';
import { SEARCH_INPUT_ID, useSearchFocus } from '../../store/search-focus';
import { SEARCH_LISTBOX_ID, searchOptionId, useSearchListbox } from '../../store/search-listbox';

/**
 * The catalogue's search box, a combobox (WAI-ARIA 1.2): focus stays here while ↑/↓ move the active result of the
 * list on screen, Enter opens it, Escape steps back: first out of the list, then clears the query, then returns to
 * the page Ctrl/Cmd+K came from.
 */
export function SearchBox({ hubOn, detail }: { hubOn: boolean; detail: boolean }) {
  const { query, setQuery } = useCatalogue();
  const go = useRoute((s) => s.go);
  const focusRequest = useSearchFocus((s) => s.request);
  const { list, active, move, reset } = useSearchListbox();
  const input = useRef<HTMLInputElement>(null);
  // Ctrl/Cmd+K: the box takes the focus with its text selected, so typing starts a new search.
  useEffect(() => {
    if (!focusRequest) return;
    input.current?.focus();
    input.current?.select();
  }, [focusRequest]);
  // A new query starts again from the box.
  useEffect(() => reset(), [query, reset]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!list?.count) return;
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter' && list && active >= 0) {
      e.preventDefault();
      location.hash = list.href(active);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      if (active >= 0) reset();
      else if (query) setQuery('');
      else {
        const back = useSearchFocus.getState().takeReturn();
        if (back) location.hash = back;
      }
    }
  };

  return (
    <input
      ref={input}
      id={SEARCH_INPUT_ID}
      className="search"
      type="search"
      role="combobox"
      aria-autocomplete="list"
      aria-expanded={!!list && list.count > 0}
      aria-controls={SEARCH_LISTBOX_ID}
      aria-activedescendant={list && active >= 0 ? searchOptionId(active) : undefined}
      placeholder={
        hubOn ? 'Search the Hub’s models, datasets, Spaces…  (Ctrl+K)' : 'Search tasks, libraries, models…  (Ctrl+K)'
      }
      aria-label="Search the catalogue"
      value={query}
      onChange={(e) => {
        setQuery(e.target.value);
        if (detail) go('catalogue');
      }}
      onKeyDown={onKeyDown}
    />
  );
}
