import type { Logger } from '../log';
import type { Indexer } from './indexer';
import type { DocIndexPort } from './ports';
import { kindOf, syncSource, walk } from './sources';
import { DocUploads } from './uploads';
import { FolderWatcher } from './watcher';

export interface AttachmentsOptions {
  index: DocIndexPort;
  indexer: Indexer;
  log: Logger;
  /** Where uploaded files are kept (`<dataDir>/documents/uploads`). */
  uploadsDir: string;
  /** Tests: how long a watched folder settles, the most files a folder may hold. */
  settleMs?: number;
  maxFolderFiles?: number;
}

/**
 * What is attached to the bases (files, folders, uploads) and keeping it in step with the disk: folders are synced
 * and watched, and what changes is indexed again.
 */
export class DocAttachments {
  private readonly uploads: DocUploads;
  private readonly watcher: FolderWatcher;

  constructor(private readonly opts: AttachmentsOptions) {
    this.uploads = new DocUploads(opts.uploadsDir);
    this.watcher = new FolderWatcher((source) => void this.resync(source), opts.settleMs);
  }

  private get index(): DocIndexPort {
    return this.opts.index;
  }

  /** Folders are synced with what changed while HubDesk was closed, and watched. */
  async syncAll(): Promise<void> {
    for (const s of this.index.sources()) {
      if (s.kind === 'folder')
        void this.watcher
          .watch(s.id, s.path)
          .catch((e: Error) => this.opts.log.warn('folder not watched', { source: s.id, message: e.message }));
      await syncSource(this.index, s, this.opts.maxFolderFiles).catch((e: Error) =>
        this.opts.log.warn('source not synced', { source: s.id, message: e.message }),
      );
    }
  }

  /** Whether the path is a file or a folder. */
  async kindOf(path: string): Promise<'file' | 'folder'> {
    const kind = await kindOf(path);
    // A folder too big is refused before anything is stored.
    if (kind === 'folder') await walk(path, this.opts.maxFolderFiles);
    return kind;
  }

  /** Attaches a file or folder to the base (again: its failed documents are read again) and indexes it. */
  async attachPath(base: string, kind: 'file' | 'folder', path: string): Promise<void> {
    const known = this.index.sources().find((s) => s.base === base && s.path === path);
    const id = known?.id ?? this.index.addSource(base, kind, path);
    // Attaching again is how a person retries what failed: its failed documents are read again (links never are).
    if (known) this.retryFailed(id);
    await syncSource(this.index, { id, base, kind, path }, this.opts.maxFolderFiles);
    this.opts.indexer.kick(base);
    // Not awaited: chokidar's walk of a large folder would hold the answer (its `ready`).
    if (kind === 'folder')
      void this.watcher
        .watch(id, path)
        .catch((e: Error) => this.opts.log.warn('folder not watched', { source: id, message: e.message }));
  }

  part(upload: string | undefined, data: string): Promise<{ upload: string }> {
    return this.uploads.part(upload, data);
  }

  /** Attaches an uploaded file (its parts sent before) to the base and indexes it. */
  async attachUpload(base: string, upload: string, name: string): Promise<void> {
    const file = await this.uploads.take(upload, name);
    const id = this.index.addSource(base, 'upload', file);
    await syncSource(this.index, { id, base, kind: 'upload', path: file });
    this.opts.indexer.kick(base);
  }

  private async resync(source: string): Promise<void> {
    const s = this.index.sources().find((x) => x.id === source);
    if (!s) return void (await this.watcher.unwatch(source));
    try {
      if (await syncSource(this.index, s, this.opts.maxFolderFiles)) this.opts.indexer.kick(s.base);
    } catch (e) {
      this.opts.log.warn('folder not synced', { source, message: (e as Error).message });
    }
  }

  private retryFailed(source: string): void {
    for (const d of this.index.documents({ source, state: ['error'] }))
      if ((d.error?.details as { reason?: string } | undefined)?.reason !== 'link')
        this.index.upsertDocument({ ...d, state: 'queued', error: undefined });
  }

  /** Detaches a source: its folder no longer watched, its uploaded copies deleted. */
  async drop(source: string): Promise<void> {
    await this.watcher.unwatch(source);
    const { uploads } = this.index.removeSource(source);
    for (const f of uploads) await this.uploads.remove(f);
  }

  /** Stops watching folders. */
  close(): Promise<void> {
    return this.watcher.close();
  }
}
