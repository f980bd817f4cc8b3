import type { Download } from '@shared/contract/local-downloads';
import type { AppErrorShape } from '@shared/errors';
import { useDownloadActions } from '../../../hooks/local';
import { formatBytes, percent } from '../../../lib/format';
import { ErrorLine } from '../Modal';
import { formatDuration, formatSpeed } from '../format';
import { downloadStateLabels } from './format';

type Actions = ReturnType<typeof useDownloadActions>;

/** The download queue: progress, speed, time left, and what can be done with each. */
export function DownloadList({
  downloads,
  error,
  loaded = [],
  onLoad,
}: {
  downloads?: Download[];
  error?: AppErrorShape;
  /** The ids of the models loaded now: a finished download of one offers no Load. */
  loaded?: string[];
  /** A finished download: open its load form. */
  onLoad: (modelId: string) => void;
}) {
  const actions = useDownloadActions();
  if (!error && (!downloads || downloads.length === 0)) return null;
  const failed =
    actions.pause.error ??
    actions.resume.error ??
    actions.restart.error ??
    actions.cancel.error ??
    actions.dismiss.error;
  return (
    <section className="card downloads" aria-labelledby="downloads-title" data-testid="downloads">
      <div className="card-head">
        <h2 id="downloads-title">Downloads</h2>
        <span className="muted small">Saved under HubDesk’s data folder, checked against the Hub’s sha256</span>
      </div>
      {error && (
        <p className="field-error" role="alert">
          Lost the download list ({error.message}); listening again…
        </p>
      )}
      <ul className="download-list">
        {(downloads ?? []).map((d) => (
          <DownloadRow
            key={d.id}
            d={d}
            actions={actions}
            loaded={!!d.modelId && loaded.includes(d.modelId)}
            onLoad={onLoad}
          />
        ))}
      </ul>
      <ErrorLine error={failed} />
    </section>
  );
}

function DownloadRow({
  d,
  actions,
  loaded,
  onLoad,
}: {
  d: Download;
  actions: Actions;
  loaded: boolean;
  onLoad: (id: string) => void;
}) {
  const pct = percent(d.receivedBytes, d.totalBytes);
  const moving = d.state === 'downloading';
  const busy = [actions.pause, actions.resume, actions.restart, actions.cancel, actions.dismiss].some((a) => a.busy);
  // A failed download with nothing on disk (a checksum refusal deletes its files) has nothing to cancel or to show as
  // "0 B of …": only what to do next.
  const nothingKept = d.state === 'failed' && (d.checksumMismatch || d.receivedBytes === 0);
  const btn = (label: string, run: () => unknown, extra = '') => (
    <button
      className={`btn btn-sm ${extra}`.trim()}
      onClick={() => void run()}
      disabled={busy}
      aria-label={`${label} ${d.file}`}
    >
      {label}
    </button>
  );
  return (
    <li className={`download dl-${d.state}`} data-testid="download" data-state={d.state} data-file={d.file}>
      <div className="download-head">
        <span className="download-file mono" title={`${d.repo}/${d.file}`}>
          {d.file}
        </span>
        {d.files.length > 1 && <span className="badge">{d.files.length} parts</span>}
        <span className={`download-state dl-state-${d.state}`} data-testid="download-state">
          {downloadStateLabels[d.state]}
        </span>
        <span className="spacer" />
        {(d.state === 'downloading' || d.state === 'queued') && btn('Pause', () => actions.pause.run(d.id))}
        {d.state === 'paused' && btn('Resume', () => actions.resume.run(d.id))}
        {d.state === 'failed' &&
          (d.checksumMismatch
            ? btn('Delete and download again', () => actions.restart.run(d.id))
            : btn('Retry', () => actions.resume.run(d.id)))}
        {['queued', 'downloading', 'paused', 'failed'].includes(d.state) &&
          !nothingKept &&
          btn('Cancel', () => actions.cancel.run(d.id), 'btn-danger')}
        {d.state === 'done' && loaded && <span className="badge badge-ok">Loaded</span>}
        {d.state === 'done' && d.modelId && !loaded && (
          <button className="btn btn-sm btn-primary" onClick={() => onLoad(d.modelId!)}>
            Load
          </button>
        )}
        {['done', 'failed', 'cancelled'].includes(d.state) &&
          btn('Dismiss', () => actions.dismiss.run(d.id), 'btn-ghost')}
      </div>
      {d.state !== 'done' && d.state !== 'cancelled' && !nothingKept && (
        <div className="download-progress">
          <div
            className="bar"
            role="progressbar"
            aria-label={`${d.file} downloaded`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
          >
            <div className={`bar-fill${moving ? '' : ' bar-still'}`} style={{ width: `${pct}%` }} />
          </div>
          <span className="download-figures small" data-testid="download-figures">
            {formatBytes(d.receivedBytes)} of {formatBytes(d.totalBytes)} ({pct}%)
            {moving && d.bytesPerSecond > 0 && ` · ${formatSpeed(d.bytesPerSecond)}`}
            {moving && d.etaSeconds !== undefined && ` · ${formatDuration(d.etaSeconds)} left`}
          </span>
        </div>
      )}
      <p className="muted small download-repo">
        {d.repo}
        {d.state === 'done' && ` · ${formatBytes(d.totalBytes)}, sha256 checked`}
      </p>
      {d.state === 'failed' && d.error && (
        <p className="field-error" role="alert" data-testid="download-error">
          {d.error.message}
        </p>
      )}
    </li>
  );
}
