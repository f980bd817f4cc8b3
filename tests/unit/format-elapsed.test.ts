import { describe, expect, it } from 'vitest';
import { formatElapsed } from '../../renderer/src/lib/format';

describe('formatElapsed: how long something took', () => {
  it('under a second in milliseconds (never "0.0 s"), then in seconds to a tenth', () => {
    expect(formatElapsed(0)).toBe('0 ms');
    expect(formatElapsed(42.4)).toBe('42 ms');
    expect(formatElapsed(999.4)).toBe('999 ms');
    expect(formatElapsed(999.6)).toBe('1.0 s');
    expect(formatElapsed(1234)).toBe('1.2 s');
    expect(formatElapsed(61_000)).toBe('61.0 s');
  });
});
