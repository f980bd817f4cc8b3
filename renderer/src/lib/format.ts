import { plural } from '@shared/plural';

export { formatBytes } from '@shared/format-bytes';

// One absolute date format across the app: "26 Nov 2026", in UTC so a date the Hub gives reads the same everywhere.
// Months spelled here, not by Intl: ICU's en-GB says "Sept", and versions differ.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An absolute date, "26 Nov 2026"; "—" when the text is not a date. */
export function formatDate(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const d = new Date(t);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** How long ago: "just now", "5 min ago", "3 h ago", "1 day ago"; after 30 days the date itself. */
export function formatAge(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = Math.max(0, (now - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 30) return `${plural(Math.floor(s / 86400), 'day')} ago`;
  return formatDate(iso);
}

/** A transfer's progress in whole percent, 0 while its total is not known. */
export function percent(completed: number, total: number): number {
  return total > 0 ? Math.min(100, Math.floor((completed / total) * 100)) : 0;
}

/** How long something took: "840 ms" under a second (a tenth of a second would read "0.0 s"), else "2.4 s". */
export function formatElapsed(ms: number): string {
  const whole = Math.round(ms);
  return whole < 1000 ? `${whole} ms` : `${(ms / 1000).toFixed(1)} s`;
}
