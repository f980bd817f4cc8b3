import { describe, expect, it } from 'vitest';
import { plural } from '@shared/plural';

describe('plural', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(2, 'file')).toBe('2 files');
    expect(plural(0, 'file')).toBe('0 files');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });

  it('formats the count without changing the noun', () => {
    const en = (n: number) => n.toLocaleString('en');
    expect(plural(1234, 'token', undefined, en)).toBe('1,234 tokens');
    expect(plural(1, 'token', undefined, en)).toBe('1 token');
  });
});
