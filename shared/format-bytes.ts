const units = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in the units Ollama and the Hub show (powers of 1000): `812 MB`, `1.3 GB`. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
