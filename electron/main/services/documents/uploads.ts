import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AppError } from '@shared/errors';

/** The largest file the page may send (extraction refuses larger ones anyway). */
const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
/** An upload nothing was added to for this long is dropped (the page was closed mid-way). */
const IDLE_MS = 10 * 60_000;

/**
 * Files the page sends in parts (drag and drop, the browser's picker): written to `<dataDir>/documents/uploads/`
 * as they come, then kept there under their name once attached (`take`), removed with their source.
 */
export class DocUploads {
  private readonly open = new Map<string, { bytes: number; touched: number }>();
  private cleared = false;

  constructor(readonly dir: string) {}

  async part(upload: string | undefined, base64: string): Promise<{ upload: string }> {
    await this.dropIdle();
    if (!this.cleared) {
      // Parts left by an earlier run (the page closed mid-upload, a crash) can never be finished: drop them.
      this.cleared = true;
      await rm(this.partsDir, { recursive: true, force: true });
    }
    const id = upload ?? `u_${randomBytes(9).toString('hex')}`;
    const u = upload ? this.get(upload) : { bytes: 0, touched: 0 };
    const bytes = Buffer.from(base64, 'base64');
    if (u.bytes + bytes.length > MAX_UPLOAD_BYTES) {
      await this.drop(id);
      throw new AppError(
        'invalid_input',
        `This file is too large to add (more than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB): split it into smaller files.`,
      );
    }
    await mkdir(this.partsDir, { recursive: true });
    await appendFile(this.partFile(id), bytes);
    this.open.set(id, { bytes: u.bytes + bytes.length, touched: Date.now() });
    return { upload: id };
  }

  /** Moves a finished upload to its place under its name; answers the file's path. */
  async take(upload: string, name: string): Promise<string> {
    this.get(upload);
    this.open.delete(upload);
    const file = join(this.dir, upload, safeName(name));
    await mkdir(dirname(file), { recursive: true });
    await rename(this.partFile(upload), file);
    return file;
  }

  /** Removes an attached upload's copy (its folder under uploads/, never anything outside). */
  async remove(file: string): Promise<void> {
    const folder = dirname(file);
    if (dirname(folder) !== this.dir) return;
    await rm(folder, { recursive: true, force: true });
  }

  private get partsDir(): string {
    return join(this.dir, '.parts');
  }

  private partFile(id: string): string {
    return join(this.partsDir, id);
  }

  private get(upload: string): { bytes: number; touched: number } {
    const u = this.open.get(upload);
    if (!u)
      throw new AppError(
        'not_found',
        'This upload was interrupted (it waited too long, or HubDesk restarted): add the file again.',
      );
    return u;
  }

  private async drop(id: string): Promise<void> {
    this.open.delete(id);
    await rm(this.partFile(id), { force: true });
  }

  private async dropIdle(): Promise<void> {
    const now = Date.now();
    for (const [id, u] of this.open) if (now - u.touched > IDLE_MS) await this.drop(id);
  }
}

/** A file name safe on every OS: no folders, no reserved characters, never empty or dot-only. */
function safeName(name: string): string {
  const clean = name
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\p{Cc}/gu, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 200);
  return clean || 'document';
}
