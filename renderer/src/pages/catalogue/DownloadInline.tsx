import { useEffect, useRef, type ReactNode } from 'react';
import type { Download } from '@shared/contract/local-downloads';
import { ChatWithModel } from '../../features/engines/ChatWithModel';
import { useDownloadActions, useDownloads, useLocalLibrary } from '../../hooks/local';
import { formatBytes, percent } from '../../lib/format';
import { hrefFor } from '../../store/route';
import { formatDuration, formatSpeed } from '../models/format';

const active = (d: Download) => d.state === 'queued' || d.state === 'downloading' || d.state === 'verifying';
const builtinHref = hrefFor('models', 'builtin');

/** The way on from a model on disk: a chat on the built-in engine (a new one, or `onChat`), and its list. */
function WayOn({ modelId, chatLabel, onChat }: { modelId: string; chatLabel: string; onChat?(id: string): void }) {
  return (
    <>
      {onChat ? (
        <button className="btn btn-primary" onClick={() => onChat(modelId)} data-testid="local-chat">
          {chatLabel}
        </button>
      ) : (
        <ChatWithModel
          backend="local"
          model={modelId}
          label={chatLabel}
          className="btn btn-primary"
          testid="local-chat"
        />
      )}
      <a className="btn btn-ghost btn-sm" href={builtinHref} data-testid="local-open-models">
        Open in Local models
      </a>
    </>
  );
}

/** What a person can do about a failed download, beside main's own words (a gated repo needs terms and a token). */
function FailureHint({ download }: { download: Download }) {
  const code = download.error?.code;
  if (code !== 'unauthorized' && code !== 'forbidden') return null;
  return (
    <>
      {' '}
      <a href={`https://huggingface.co/${download.repo}`} target="_blank" rel="noreferrer">
        Its page on the Hub
      </a>{' '}
      · <a href={hrefFor('settings')}>Settings</a>
    </>
  );
}

/**
 * "Download and run in HubDesk" for one GGUF of a Hub repo: the download runs in main while this shows its progress
 * (bytes, speed, time left; Pause, Resume, Cancel), its failure in words, and once done the chat it is for. A file
 * already on disk offers the chat at once.
 */
export function DownloadInline({
  repo,
  file,
  startLabel = 'Download and run in HubDesk',
  chatLabel = 'Chat with it',
  onChat,
}: {
  repo: string;
  file: string;
  startLabel?: string;
  chatLabel?: string;
  /** Chat in the conversation at hand instead of a new one. */
  onChat?(modelId: string): void;
}) {
  const id = `${repo}/${file}`;
  const library = useLocalLibrary();
  const { downloads, error: watchError } = useDownloads();
  const actions = useDownloadActions();
  const download = downloads
    ?.filter((d) => d.repo === repo && d.file === file)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .at(-1);
  const onDisk = library.data?.models.find((m) => m.id === id && !m.problem);
  const actionError = [actions.start, actions.pause, actions.resume, actions.cancel, actions.dismiss].find(
    (a) => a.error,
  )?.error;
  // After the user acts here, the control they used may go (Download becomes Pause, Pause becomes Resume): the focus
  // moves to this panel's first control rather than falling to the page, so a keyboard user stays in place.
  const box = useRef<HTMLDivElement>(null);
  const acted = useRef(false);
  const shown = download?.state ?? (onDisk ? 'on-disk' : 'none');
  useEffect(() => {
    const now = document.activeElement;
    if (!acted.current || (now && now !== document.body)) return;
    box.current?.querySelector<HTMLElement>('button:not(:disabled), a[href]')?.focus();
  }, [shown]);
  const start = async () => {
    // A failed or cancelled try leaves the list, so the new one is the only one shown for this file.
    if (download && (download.state === 'failed' || download.state === 'cancelled'))
      await actions.dismiss.run(download.id);
    await actions.start.run({ repo, file });
  };

  let body: ReactNode;
  if (download && (active(download) || download.state === 'paused')) {
    body = <Progress download={download} actions={actions} />;
  } else if (download?.state === 'done' || onDisk) {
    const done = download?.state === 'done';
    body = (
      <p className="cat-actions" role="status">
        <span className="badge badge-ok" data-testid="local-download-state">
          {done ? 'downloaded' : 'on disk'}
        </span>
        {!done && <span className="small">On disk —</span>}
        <WayOn modelId={(done && download.modelId) || onDisk?.id || id} chatLabel={chatLabel} onChat={onChat} />
      </p>
    );
  } else {
    body = (
      <>
        <p className="cat-actions">
          <button
            className="btn btn-primary"
            onClick={() => void start()}
            disabled={actions.start.busy}
            data-testid="local-download"
          >
            {/* Either way the failed try is dismissed (its files deleted) and the file fetched from its first byte. */}
            {download?.state === 'failed'
              ? download.checksumMismatch
                ? 'Delete and download again'
                : 'Try again'
              : startLabel}
          </button>
          <span className="mono small muted">{file}</span>
        </p>
        {download?.state === 'cancelled' && (
          <p className="help" data-testid="local-download-state">
            Cancelled. The partial file was deleted.
          </p>
        )}
        {download?.state === 'failed' && (
          <p className="field-error" role="alert" data-testid="local-download-state">
            The download failed: {download.error?.message ?? 'unknown error'}
            <FailureHint download={download} />
          </p>
        )}
      </>
    );
  }
  return (
    <div
      className="pull-inline local-download"
      data-testid="local-download-inline"
      ref={box}
      onClickCapture={() => (acted.current = true)}
    >
      {body}
      {actionError && (
        <p className="field-error" role="alert" data-testid="local-download-error">
          {actionError.message}
        </p>
      )}
      {watchError && !download && (
        <p className="help" data-testid="local-download-watch">
          Download progress is not available right now ({watchError.message}); trying again.
        </p>
      )}
    </div>
  );
}

function stateText(d: Download): string {
  if (d.state === 'queued') return 'Waiting for another download to finish.';
  if (d.state === 'verifying') return 'Checking the file against the Hub’s checksum…';
  if (d.state === 'paused') return 'Paused.';
  return 'Downloading';
}

function Progress({ download: d, actions }: { download: Download; actions: ReturnType<typeof useDownloadActions> }) {
  const pct = percent(d.receivedBytes, d.totalBytes);
  const paused = d.state === 'paused';
  return (
    <>
      <div className="cat-actions">
        <span className="mono small">{d.file}</span>
        {paused ? (
          <button
            className="btn btn-sm"
            onClick={() => void actions.resume.run(d.id)}
            data-testid="local-download-resume"
          >
            Resume
          </button>
        ) : (
          d.state === 'downloading' && (
            <button
              className="btn btn-ghost btn-sm"
              onClick={() => void actions.pause.run(d.id)}
              data-testid="local-download-pause"
            >
              Pause
            </button>
          )
        )}
        {d.state !== 'verifying' && (
          <button
            className="btn btn-ghost btn-sm"
            onClick={() => void actions.cancel.run(d.id)}
            data-testid="local-download-cancel"
          >
            Cancel
          </button>
        )}
      </div>
      <div
        className="bar"
        role="progressbar"
        aria-label={`Downloading ${d.file}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="bar-fill" style={{ width: `${pct}%` }} />
      </div>
      <p className="small muted" aria-live="polite" data-testid="local-download-state" data-state={d.state}>
        {stateText(d)}
        {d.totalBytes > 0 && ` · ${formatBytes(d.receivedBytes)} of ${formatBytes(d.totalBytes)} · ${pct}%`}
        {d.state === 'downloading' && d.bytesPerSecond > 0 ? ` · ${formatSpeed(d.bytesPerSecond)}` : ''}
        {d.state === 'downloading' && d.etaSeconds !== undefined ? ` · about ${formatDuration(d.etaSeconds)} left` : ''}
      </p>
    </>
  );
}
