import { randomBytes } from 'node:crypto';
import { AppError } from '@shared/errors';
import { MAX_IMPORT_FILE_CHARS } from '@shared/limits';

/** Files being sent at once; starting another forgets the one least recently added to. */
const MAX_UPLOADS = 4;
/** An upload nothing was added to for this long is forgotten (the page was closed mid-way). */
const IDLE_MS = 10 * 60_000;

interface Upload {
  parts: string[];
  chars: number;
  touched: number;
}

/**
 * Files too long for one call, sent in parts (`chat.importPart`) and kept here until `chat.importFile` takes
 * them: a file is bounded only by MAX_IMPORT_FILE_CHARS, while every request stays within the transport's body limit.
 */
export class ImportUploads {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly maxChars = MAX_IMPORT_FILE_CHARS) {}

  /** Adds a part to `upload`, or starts a new one; answers the upload's id. */
  add(upload: string | undefined, text: string): { upload: string } {
    this.forgetIdle();
    const id = upload ?? `u_${randomBytes(9).toString('hex')}`;
    const u = upload ? this.get(upload) : { parts: [], chars: 0, touched: 0 };
    if (u.chars + text.length > this.maxChars) {
      this.uploads.delete(id);
      throw new AppError(
        'invalid_input',
        `This file is too long to import: more than ${this.maxChars.toLocaleString('en')} characters.`,
      );
    }
    u.parts.push(text);
    u.chars += text.length;
    u.touched = Date.now();
    // Most recently added to last: the first is the one to forget.
    this.uploads.delete(id);
    this.uploads.set(id, u);
    if (this.uploads.size > MAX_UPLOADS) this.uploads.delete(this.uploads.keys().next().value!);
    return { upload: id };
  }

  /** The whole file, once: the parts are let go as it is joined. */
  take(upload: string): string {
    const u = this.get(upload);
    this.uploads.delete(upload);
    const text = u.parts.join('');
    u.parts.length = 0;
    return text;
  }

  private get(upload: string): Upload {
    const u = this.uploads.get(upload);
    if (!u)
      throw new AppError(
        'not_found',
        'This import was interrupted (it waited too long, or the app restarted): pick the file again.',
      );
    return u;
  }

  private forgetIdle(): void {
    const now = Date.now();
    for (const [id, u] of this.uploads) if (now - u.touched > IDLE_MS) this.uploads.delete(id);
  }
}
