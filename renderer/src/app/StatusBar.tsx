import { useEffect } from 'react';
import { useSettings } from '../store/settings';
import { useStatus } from '../store/status';

const POLL_MS = 15_000;

export function StatusBar() {
  const { ollama, refresh } = useStatus();
  const host = useSettings((s) => s.view?.values.ollamaHost);

  useEffect(() => {
    void refresh();
    const t = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(t);
  }, [refresh, host]);

  const state = !ollama ? 'unknown' : ollama.reachable ? 'ok' : 'down';
  return (
    <footer className="statusbar" aria-label="Status">
      <button
        className={`status-dot status-${state}`}
        onClick={() => void refresh()}
        title={ollama?.error?.message ?? 'Check again'}
        data-testid="ollama-status"
      >
        <span className="dot" aria-hidden="true" />
        {state === 'unknown' && 'Ollama: checking…'}
        {state === 'ok' && `Ollama ${ollama?.version} · ${ollama?.host}`}
        {state === 'down' && `Ollama not reachable · ${ollama?.host}`}
      </button>
      <span className="spacer" />
      <span className="muted">Ctrl+K search · Ctrl+, settings</span>
    </footer>
  );
}
