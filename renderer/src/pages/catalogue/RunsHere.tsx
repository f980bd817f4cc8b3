import type { HardwareView } from '@shared/contract/hardware';
import { formatBytes } from '@shared/format-bytes';
import { gb, verdictLabels } from '@shared/fit';
import { useBestFit, useHardware } from '../../hooks/fit';
import { useTrendingGguf } from '../../hooks/hub';
import { catalogueHref } from './links';
import './fit.css';

/** A few rows: each asks the Hub for the repo's files, so the list stays short. */
const SHOWN = 5;

/** One repo and the quant HubDesk would pick for this machine, with its verdict; quiet when something is unknown. */
function FitRow({ id, hardware }: { id: string; hardware?: HardwareView }) {
  const best = useBestFit(id, hardware);
  return (
    <li className="start-fit-row" data-id={id} data-state={best.state}>
      <a className="mono start-fit-id" href={catalogueHref('model', id)}>
        {id}
      </a>
      <span className="start-fit-verdict small">
        {best.state === 'loading' ? (
          <span className="muted">checking the files…</span>
        ) : best.state === 'error' ? (
          <span className="muted">file sizes unavailable</span>
        ) : best.state === 'unknown' ? (
          <span className="muted">file sizes unknown</span>
        ) : (
          <>
            <span className="mono">{best.label}</span>
            <span className="muted"> · {formatBytes(best.size)}</span>
            {best.fit ? (
              <>
                {' '}
                <span
                  className={`fit-badge fit-${best.fit.verdict}`}
                  data-verdict={best.fit.verdict}
                  title={`Needs about ${gb(best.fit.needBytes)}: the file, the KV cache for the default context (estimated from the parameter count) and the runtime. The model page reads the file's header for a closer figure.`}
                >
                  {verdictLabels[best.fit.verdict]}
                </span>
              </>
            ) : (
              <span className="muted"> · machine unknown</span>
            )}
          </>
        )}
      </span>
    </li>
  );
}

/**
 * "Runs on this machine": the Hub's trending GGUF repos, each with its best verdict. A Hub that does not answer leaves
 * a quiet line with Try again, not an error card: the rest of the start page is still worth using.
 */
export function RunsHere() {
  const { live, reload } = useTrendingGguf(SHOWN);
  const hardware = useHardware(live.state === 'ok' && live.results.length > 0);
  return (
    <section
      className="card cat-section start-section"
      data-testid="runs-here"
      aria-labelledby="runs-here-title"
      aria-busy={live.state === 'loading'}
    >
      <h2 id="runs-here-title">Runs on this machine</h2>
      <p className="small muted start-note">Trending GGUF models on the Hub, with the quant that suits this machine.</p>
      {live.state === 'loading' ? (
        <p className="muted small" role="status">
          Asking the Hub…
        </p>
      ) : live.state === 'off' ? (
        <p className="muted small">Hub access is off.</p>
      ) : live.state === 'error' ? (
        <p className="muted small" data-testid="runs-here-error">
          The Hub did not answer ({live.error.message.replace(/\.$/, '')}).{' '}
          <button type="button" className="btn btn-ghost" onClick={reload}>
            Try again
          </button>
        </p>
      ) : live.results.length === 0 ? (
        <p className="muted small">The Hub lists no trending GGUF models right now.</p>
      ) : (
        <ul className="start-fit-list">
          {live.results.map((m) => (
            <FitRow key={m.id} id={m.id} hardware={hardware} />
          ))}
        </ul>
      )}
    </section>
  );
}
