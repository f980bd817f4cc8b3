import { useEffect } from 'react';
import { parseHash, useRoute } from '../store/route';
import { useSearchFocus } from '../store/search-focus';

export function useShortcuts() {
  const go = useRoute((s) => s.go);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      if (e.key === 'k' || e.key === 'K') {
        e.preventDefault();
        // The address, not the route store: a key pressed right after a link changes the hash comes before the
        // store has heard of it (hashchange is a later task).
        const from = parseHash(location.hash).page !== 'catalogue' ? location.hash : undefined;
        if (from) go('catalogue');
        useSearchFocus.getState().focus(from);
      } else if (e.key === ',') {
        e.preventDefault();
        go('settings');
      }
    };
    // Capture phase: the app's shortcuts win over a focused editor's own (Monaco takes Ctrl+K as a chord prefix).
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [go]);
}
