import type { CSSProperties } from 'react';

/** Where a virtualised row sits in its list (@tanstack/react-virtual's size and start), as the catalogue lists place it. */
export const virtualRowStyle = (v: { size: number; start: number }): CSSProperties => ({
  position: 'absolute',
  top: 0,
  left: 0,
  right: 0,
  height: v.size,
  transform: `translateY(${v.start}px)`,
});
