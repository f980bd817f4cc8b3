import { describe, expect, it } from 'vitest';
import { formatAge, formatDate } from '../../renderer/src/lib/format';

const now = Date.parse('2026-11-26T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString();

describe('formatDate', () => {
  it('writes an absolute date as day, short month, year', () => {
    expect(formatDate('2026-11-26T23:30:00Z')).toBe('26 Nov 2026');
    expect(formatDate('2024-01-05')).toBe('5 Jan 2024');
    expect(formatDate('2025-09-25T10:00:00Z')).toBe('25 Sep 2025');
    expect(formatDate('not a date')).toBe('—');
  });
});

describe('formatAge', () => {
  it('says recent ages in words with the right number', () => {
    expect(formatAge(ago(10), now)).toBe('just now');
    expect(formatAge(ago(5 * 60), now)).toBe('5 min ago');
    expect(formatAge(ago(3 * 3600), now)).toBe('3 h ago');
    expect(formatAge(ago(86400 + 60), now)).toBe('1 day ago');
    expect(formatAge(ago(4 * 86400), now)).toBe('4 days ago');
  });

  it('gives the date itself for anything older than a month', () => {
    expect(formatAge('2025-03-09T08:00:00Z', now)).toBe('9 Mar 2025');
  });
});
