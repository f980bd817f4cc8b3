import type { LocalSource } from '@shared/contract/local-models';
import type { DownloadState } from '@shared/contract/local-downloads';
import type { LoadedModel } from '@shared/contract/local-engine';

/** Where a GGUF was found, as the badge says it. */
export const sourceLabels: Record<LocalSource, string> = {
  downloaded: 'Downloaded',
  'hf-cache': 'HF cache',
  lmstudio: 'LM Studio',
  folder: 'Folder',
};

export const downloadStateLabels: Record<DownloadState, string> = {
  queued: 'Queued',
  downloading: 'Downloading',
  paused: 'Paused',
  verifying: 'Checking sha256…',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The keep-alive choices, in minutes (0: until unloaded by hand). */
export const keepAliveOptions = [
  { minutes: 5, label: '5 min' },
  { minutes: 10, label: '10 min' },
  { minutes: 30, label: '30 min' },
  { minutes: 60, label: '1 h' },
  { minutes: 0, label: 'Never' },
];

export const formatTokens = (n: number) => n.toLocaleString('en-US');

/** A loaded model's parallel capacity when idle ("4 at once"), else what it is doing ("2 of 4 answering · 1 waiting"). */
export function formatActivity(m: Pick<LoadedModel, 'sequences' | 'busy' | 'waiting'>): string {
  if (m.busy === 0 && m.waiting === 0) return m.sequences === 1 ? '1 at a time' : `${m.sequences} at once`;
  return `${m.busy} of ${m.sequences} answering${m.waiting > 0 ? ` · ${m.waiting} waiting` : ''}`;
}
