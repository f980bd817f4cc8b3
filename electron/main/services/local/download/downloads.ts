import type { Download } from '@shared/contract/local';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';

export interface DownloadsOptions {
  /** `<data dir>/models`: files go to `<dir>/<repo>/<file>`; the manifest of verified downloads sits beside them. */
  dir: string;
  /** The Hub endpoint (HF_ENDPOINT / Settings). */
  endpoint: () => string;
  /** The key-bound fetch: it puts the HF token on requests to the Hub endpoint only, never after a redirect away. */
  fetch: typeof fetch;
  log: Logger;
  /** Told when a download is verified and usable (the library rescans). */
  onDone?: (d: Download) => void;
  /** Free bytes on the disk holding `dir` (tests: a full disk). */
  freeBytes?: (dir: string) => Promise<number>;
  /** How many downloads run at once; the rest wait in the queue. */
  concurrency?: number;
}

/** The download queue: Range requests with pause and resume, split files together, sha256 checked before use. */
export class Downloads {
  constructor(private readonly opts: DownloadsOptions) {}

  list(): Download[] {
    void this.opts;
    return [];
  }

  async start(req: { repo: string; file: string; revision?: string }): Promise<Download> {
    void req;
    throw new AppError('unavailable', 'Downloads are not built yet.');
  }

  async pause(id: string): Promise<Download> {
    return this.byId(id);
  }

  async resume(id: string): Promise<Download> {
    return this.byId(id);
  }

  async cancel(id: string): Promise<Download> {
    return this.byId(id);
  }

  dismiss(id: string): Download[] {
    void id;
    return this.list();
  }

  /** Calls `fn` after each change to the list; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    void fn;
    return () => {};
  }

  /** Pauses what runs (its partial files stay, to resume at the next start). */
  async dispose(): Promise<void> {}

  private byId(id: string): Download {
    const d = this.list().find((x) => x.id === id);
    if (!d) throw new AppError('not_found', 'That download is no longer in the list.');
    return d;
  }
}
