import { useEffect, useRef } from 'react';
import { Empty } from '../../components/States';
import { SEARCH_INPUT_ID } from '../../app/shortcuts';
import { useSearchFocus } from '../../store/search-focus';

export function CataloguePage() {
  const focusRequest = useSearchFocus((s) => s.request);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusRequest) input.current?.focus();
  }, [focusRequest]);
  return (
    <section className="page">
      <header className="page-header">
        <h1>Catalogue</h1>
        <input
          ref={input}
          id={SEARCH_INPUT_ID}
          className="search"
          type="search"
          placeholder="Search tasks, libraries, models…"
        />
      </header>
      <Empty title="Nothing to browse yet">Tasks, libraries, models, datasets and demo apps will be listed here.</Empty>
    </section>
  );
}
