import type { FSWatcher } from 'chokidar';
import { skipped } from './sources';

/** How long a folder stays quiet before it is looked at again: a save or a copy comes as several events. */
const SETTLE_MS = 300;

/**
 * Watches attached folders (chokidar) and calls `changed(source)` once a burst of adds, changes and removals has
 * settled; the service then brings the source's documents in line with the folder (sync by mtime and size).
 */
export class FolderWatcher {
  private readonly watchers = new Map<
    string,
    { w?: FSWatcher; timer?: ReturnType<typeof setTimeout>; closed?: boolean }
  >();

  constructor(
    private readonly changed: (source: string) => void,
    private readonly settleMs = SETTLE_MS,
  ) {}

  /** Starts watching, resolved once the folder is watched (chokidar is loaded on the first folder, never at launch). */
  async watch(source: string, folder: string): Promise<void> {
    if (this.watchers.has(source)) return;
    const entry: { w?: FSWatcher; timer?: ReturnType<typeof setTimeout>; closed?: boolean } = {};
    this.watchers.set(source, entry);
    const { watch } = await import('chokidar');
    if (entry.closed) return;
    const w = (entry.w = watch(folder, { ignoreInitial: true, ignored: (p: string) => skipped(p, folder) }));
    const poke = () => {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        this.changed(source);
      }, this.settleMs);
    };
    w.on('add', poke).on('change', poke).on('unlink', poke).on('unlinkDir', poke);
    // A folder that cannot be watched (too many watches, permissions) is still indexed; it is synced at start-up.
    w.on('error', () => undefined);
    // Changes made while chokidar still walks the folder could be missed: the folder counts as watched once ready.
    await new Promise<void>((ready) => w.once('ready', () => ready()));
  }

  async unwatch(source: string): Promise<void> {
    const entry = this.watchers.get(source);
    if (!entry) return;
    this.watchers.delete(source);
    entry.closed = true;
    if (entry.timer) clearTimeout(entry.timer);
    await entry.w?.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.watchers.keys()].map((s) => this.unwatch(s)));
  }
}
