import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from './fs/atomic-write';

interface Bounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

const defaultBounds: Bounds = { width: 1280, height: 820 };

/** Remembers the window's size and position; a stored position off every display is dropped. */
export function loadBounds(file: string, displays: { x: number; y: number; width: number; height: number }[]): Bounds {
  if (!existsSync(file)) return defaultBounds;
  try {
    const b = JSON.parse(readFileSync(file, 'utf8')) as Bounds;
    if (!(b.width >= 480 && b.height >= 360)) return defaultBounds;
    const visible =
      b.x === undefined ||
      b.y === undefined ||
      displays.some(
        (d) => b.x! + 40 >= d.x && b.y! + 40 >= d.y && b.x! < d.x + d.width - 40 && b.y! < d.y + d.height - 40,
      );
    return visible ? b : { width: b.width, height: b.height, maximized: b.maximized };
  } catch {
    return defaultBounds;
  }
}

export function saveBounds(file: string, b: Bounds): void {
  writeFileAtomic(file, JSON.stringify(b));
}
