import { useEffect } from 'react';
import { ExternalLink } from '../components/ExternalLink';
import { OLLAMA_DOWNLOAD } from '../lib/ollama-library';
import { isActive, jobTotals, usePulls } from '../store/pulls';
import { hrefFor } from '../store/route';
import { useSettings } from '../store/settings';
import { useStatus } from '../store/status';
import './StatusBar.css';

const POLL_MS = 15_000;

/** Pulls, pushes and creates still running, so they stay visible from every page. */
function Transfers() {
  const jobs = usePulls((s) => s.jobs);
  const active = jobs.filter(isActive);
  if (active.length === 0) return null;
  let total = 0;
  let completed = 0;
  for (const j of active) {
    const t = jobTotals(j);
    total += t.total;
    completed += t.completed;
  }
  const pct = total > 0 ? ` · ${Math.floor((completed / total) * 100)}%` : '';
  const label =
    active.length === 1
      ? `${active[0].kind === 'pull' ? 'Pulling' : active[0].kind === 'push' ? 'Pushing' : 'Creating'} ${active[0].model}`
      : `${active.length} transfers`;
  return (
    <a className="status-transfers" href={hrefFor('models')} data-testid="status-transfers">
      <span className="spinner" aria-hidden="true" />
      {label}
      {pct}
    </a>
  );
}

export function StatusBar() {
  const { ollama, refresh, refusal } = useStatus();
  const host = useSettings((s) => s.view?.values.ollamaHost);

  useEffect(() => {
    void refresh();
    const t = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(t);
  }, [refresh, host]);

  // Main refused this page's secret: nothing else on the bar is known, and this is what the user must do.
  if (refusal)
    return (
      <footer className="statusbar statusbar-refused" aria-label="Status">
        <p role="alert" data-testid="secret-refused">
          {refusal.message}
        </p>
      </footer>
    );

  const state = !ollama ? 'unknown' : ollama.reachable ? 'ok' : 'down';
  const reason =
    ollama?.error?.code === 'timeout'
      ? 'timed out'
      : ollama?.error?.code === 'unavailable'
        ? 'not running?'
        : ollama?.error?.status
          ? `HTTP ${ollama.error.status}`
          : '';
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
        {state === 'down' && `Ollama not reachable · ${ollama?.host}${reason ? ` · ${reason}` : ''}`}
      </button>
      {state === 'down' && ollama?.error?.code === 'unavailable' && (
        <ExternalLink href={OLLAMA_DOWNLOAD} testId="status-ollama-download">
          Install Ollama
        </ExternalLink>
      )}
      <Transfers />
      <span className="spacer" />
      <span className="muted">Ctrl+K search · Ctrl+, settings</span>
    </footer>
  );
}
