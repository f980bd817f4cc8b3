import type { FSWatcher } from 'chokidar';
import { MAX_FOLDER_DEPTH, skipped } from './sources';

/** How long a folder stays quiet before it is looked at again: a save or a copy comes as several events. */
const SETTLE_MS = 300;

/** The most files and folders one attached folder has watched: past it, the rest is synced at launch only. */
const MAX_WATCHED = 20_000;

type Entry = { w?: FSWatcher; timer?: ReturnType<typeof setTimeout>; closed?: boolean; ready?: Promise<void> };

/**
 * Watches attached folders (chokidar) and calls `changed(source)` once a burst of adds, changes and removals has
 * settled; the service then brings the source's documents in line with the folder (sync by mtime and size). A folder
 * is walked, never followed: links are not followed (a loop, or a link to `/`, has no end), and the depth and the
 * number of entries watched are capped.
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, Entry>();

  constructor(
    private readonly changed: (source: string) => void,
    private readonly settleMs = SETTLE_MS,
    private readonly maxWatched = MAX_WATCHED,
  ) {}

  /**
   * Starts watching (chokidar is loaded on the first folder, never at launch), without waiting for chokidar's walk:
   * a large folder is watched a while after the call that attached it has answered. Changes made during that walk
   * are caught by one sync once it is done.
   */
  async watch(source: string, folder: string): Promise<void> {
    if (this.watchers.has(source)) return;
    const entry: Entry = {};
    this.watchers.set(source, entry);
    const { watch } = await import('chokidar');
    if (entry.closed) return;
    const seen = new Set<string>();
    const ignored = (p: string) => {
      if (skipped(p, folder)) return true;
      if (seen.has(p)) return false;
      if (seen.size >= this.maxWatched) return true;
      seen.add(p);
      return false;
    };
    const w = (entry.w = watch(folder, {
      ignoreInitial: true,
      followSymlinks: false,
      depth: MAX_FOLDER_DEPTH,
      ignored,
    }));
    const poke = () => {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        this.changed(source);
      }, this.settleMs);
    };
    entry.ready = new Promise((ready) => w.once('ready', ready));
    void entry.ready.then(poke);
    w.on('add', poke).on('change', poke).on('unlink', poke).on('unlinkDir', poke);
    // A folder that cannot be watched (too many watches, permissions) is still indexed; it is synced at start-up.
    w.on('error', () => undefined);
  }

  /** Once chokidar has walked the folder: every path it watches (tests, diagnostics). */
  async watched(source: string): Promise<string[]> {
    const entry = this.watchers.get(source);
    await entry?.ready;
    const tree = entry?.w?.getWatched() ?? {};
    return Object.entries(tree).flatMap(([dir, names]) => names.map((n) => `${dir}/${n}`));
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
