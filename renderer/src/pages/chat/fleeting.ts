import { useEffect } from 'react';

/** A notice shown for a moment: `clear` runs 1.5 s after `value` was set. */
export function useFleeting<T>(value: T | undefined, clear: (v: undefined) => void): void {
  useEffect(() => {
    if (value === undefined) return;
    const t = setTimeout(() => clear(undefined), 1500);
    return () => clearTimeout(t);
  }, [value, clear]);
}
