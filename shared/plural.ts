/**
 * A count with its noun in the right number: `plural(1, 'file')` → "1 file", `plural(2, 'file')` → "2 files".
 * Pass the plural when adding "s" is wrong (`plural(n, 'entry', 'entries')`). `count` formats the number (e.g.
 * thousands separators) when the caller wants that; the noun still follows the number itself.
 */
export function plural(n: number, one: string, many = `${one}s`, count: (n: number) => string = String): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}
