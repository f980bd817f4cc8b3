import { formatBytes } from '../../lib/format';

export function formatSpeed(bytesPerSec: number | undefined): string {
  return bytesPerSec === undefined ? '' : `${formatBytes(bytesPerSec)}/s`;
}

export function formatDuration(secs: number): string {
  if (!Number.isFinite(secs) || secs < 0) return '';
  const s = Math.max(1, Math.round(secs));
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  const m = Math.round(s / 60);
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
}

/** "in 4 min" for a time in the future, "expired" for one in the past. */
export function formatUntil(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = (t - now) / 1000;
  if (s <= 0) return 'expiring';
  if (s > 86400 * 365) return 'never (kept loaded)';
  return `in ${formatDuration(s)}`;
}
