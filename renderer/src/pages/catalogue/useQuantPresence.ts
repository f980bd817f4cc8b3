import type { Download } from '@shared/contract/local';
import type { GgufQuant } from '@shared/contract/hub-repo';
import { useDownloads, useLocalLibrary } from '../../hooks/local';
import { useLocalModels } from '../../hooks/models';
import { ollamaName, type QuantEngine } from '../../lib/compare-quants';
import { formatBytes } from '../../lib/format';
import { isActive, jobTotals, usePulls } from '../../store/pulls';
import { percent } from '../models/format';
import { firstGgufFile } from './DownloadInline';

/** Where one quant stands on the chosen engine: here (as which model), being fetched, or missing (and why). */
export type Presence =
  | { kind: 'here'; model: string }
  | { kind: 'busy'; pct: number; text: string; job: { pull?: string; download?: string } }
  | { kind: 'missing'; error?: string; cancelled?: boolean };

/** The transfers this dialog started: only their failures are its to show. */
export interface Ours {
  pulls: string[];
  downloads: string[];
}

const activeDownload = (d: Download) => ['queued', 'downloading', 'verifying', 'paused'].includes(d.state);
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Each quant's presence on `engine`, from what Ollama lists and the pulls store, or from the built-in engine's
 * library and the download queue (the same stores the page's Run locally buttons use, so a pull started there shows
 * here too). `known`: the engine's list has answered.
 */
export function useQuantPresence(
  repo: string,
  quants: GgufQuant[],
  engine: QuantEngine,
  ours: Ours,
): { presence: Map<string, Presence>; known: boolean } {
  const ollama = useLocalModels();
  const jobs = usePulls((s) => s.jobs);
  const library = useLocalLibrary();
  const { downloads } = useDownloads();
  const out = new Map<string, Presence>();
  for (const q of quants) {
    if (engine === 'ollama') {
      const name = ollamaName(repo, q.label);
      const job = [...jobs].reverse().find((j) => j.kind === 'pull' && sameName(j.model, name));
      if (job?.state === 'success' || ollama.models?.some((m) => sameName(m.name, name))) {
        out.set(q.label, { kind: 'here', model: job?.model ?? name });
      } else if (job && isActive(job)) {
        const t = jobTotals(job);
        const pct = percent(t.completed, t.total);
        const text = job.state === 'queued' ? 'waiting for another pull' : job.status;
        out.set(q.label, {
          kind: 'busy',
          pct,
          text: t.total > 0 ? `${text} · ${formatBytes(t.completed)} of ${formatBytes(t.total)}` : text,
          job: { pull: job.id },
        });
      } else {
        const mine = job && ours.pulls.includes(job.id);
        out.set(q.label, {
          kind: 'missing',
          error: mine && job.state === 'error' ? (job.error?.message ?? 'The pull failed.') : undefined,
          cancelled: mine && job.state === 'cancelled',
        });
      }
      continue;
    }
    const file = firstGgufFile(q.files);
    const id = `${repo}/${file}`;
    const download = downloads
      ?.filter((d) => d.repo === repo && d.file === file)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .at(-1);
    const onDisk = library.data?.models.find((m) => m.id === id && !m.problem);
    if (download?.state === 'done' || onDisk) {
      out.set(q.label, { kind: 'here', model: (download?.state === 'done' && download.modelId) || onDisk?.id || id });
    } else if (download && activeDownload(download)) {
      const pct = percent(download.receivedBytes, download.totalBytes);
      const text = download.state === 'paused' ? 'paused' : download.state === 'queued' ? 'waiting' : download.state;
      out.set(q.label, {
        kind: 'busy',
        pct,
        text:
          download.totalBytes > 0
            ? `${text} · ${formatBytes(download.receivedBytes)} of ${formatBytes(download.totalBytes)}`
            : text,
        job: { download: download.id },
      });
    } else {
      const mine = download && ours.downloads.includes(download.id);
      out.set(q.label, {
        kind: 'missing',
        error: mine && download.state === 'failed' ? (download.error?.message ?? 'The download failed.') : undefined,
        cancelled: mine && download.state === 'cancelled',
      });
    }
  }
  // Until the engine's list answers, a quant on it would look missing (and be fetched again).
  const known = engine === 'ollama' ? !!(ollama.models || ollama.error) : !!(library.data || library.state === 'error');
  return { presence: out, known };
}
