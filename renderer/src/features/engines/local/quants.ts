import type { GgufQuant } from '@shared/contract/hub-repo';
import type { Download } from '@shared/contract/local-downloads';
import { useDownloadActions, useDownloads, useEngineStatus, useLocalLibrary } from '../../../hooks/local';
import { quantWords } from '../../../lib/engines';
import { formatBytes, percent } from '../../../lib/format';
import { firstGgufFile } from '../../../lib/gguf-files';
import type { Presence, QuantTarget } from '../types';

const activeDownload = (d: Download) => ['queued', 'downloading', 'verifying', 'paused'].includes(d.state);

/**
 * Compare quants on the built-in engine: each quant's GGUF (its first file) downloaded, from the engine's library and
 * the download queue. `ours`: the downloads the dialog started (only their failures are its to show).
 */
export function useLocalQuants(repo: string, quants: readonly GgufQuant[], ours: readonly string[]): QuantTarget {
  const library = useLocalLibrary();
  const { downloads } = useDownloads();
  const actions = useDownloadActions();
  // Why the built-in engine cannot run here (its binaries missing or refused), once main has said so.
  const problem = useEngineStatus().status?.error;
  const presence = new Map<string, Presence>();
  for (const q of quants) {
    const file = firstGgufFile(q.files);
    const id = `${repo}/${file}`;
    const download = downloads
      ?.filter((d) => d.repo === repo && d.file === file)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .at(-1);
    const onDisk = library.data?.models.find((m) => m.id === id && !m.problem);
    if (download?.state === 'done' || onDisk) {
      presence.set(q.label, {
        kind: 'here',
        model: (download?.state === 'done' && download.modelId) || onDisk?.id || id,
      });
    } else if (download && activeDownload(download)) {
      const pct = percent(download.receivedBytes, download.totalBytes);
      const text = download.state === 'paused' ? 'paused' : download.state === 'queued' ? 'waiting' : download.state;
      presence.set(q.label, {
        kind: 'busy',
        pct,
        text:
          download.totalBytes > 0
            ? `${text} · ${formatBytes(download.receivedBytes)} of ${formatBytes(download.totalBytes)}`
            : text,
        job: download.id,
      });
    } else {
      const mine = download && ours.includes(download.id);
      presence.set(q.label, {
        kind: 'missing',
        error: mine && download.state === 'failed' ? (download.error?.message ?? 'The download failed.') : undefined,
        cancelled: mine && download.state === 'cancelled',
      });
    }
  }
  return {
    engine: 'local',
    words: quantWords('local'),
    name: 'The built-in engine',
    note: problem ? `cannot start here: ${problem.message}` : 'a downloaded GGUF per quant',
    problem: problem && `The built-in engine cannot start: ${problem.message}`,
    presence,
    known: !!(library.data || library.state === 'error'),
    fetch: async (labels, started) => {
      for (const label of labels) {
        const file = firstGgufFile(quants.find((q) => q.label === label)?.files ?? []);
        const d = file ? await actions.start.run({ repo, file }) : undefined;
        if (!d) return false;
        started(d.id);
      }
      return true;
    },
    cancel: (job) => void actions.cancel.run(job),
    refused: actions.start.error && `The download could not start: ${actions.start.error.message}`,
    starting: actions.start.busy,
  };
}
