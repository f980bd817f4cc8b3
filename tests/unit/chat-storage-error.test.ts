import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, httpStatusFor, isAppErrorShape } from '@shared/errors';
import { appErrorSchema } from '@shared/contract/error-schema';
import { storageError } from '../../electron/main/services/chat/storage/storage-error';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { createLogger } from '../../electron/main/services/log';
import { tempDir } from '../helpers/app';

/** SQLite's error as libsql throws it: a message and a `code`. */
const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('chat storage errors: a code per thing to do', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('a damaged chats.sqlite is storage_damaged (not internal), reported and left untouched', () => {
    const d = tempDir('hubdesk-damaged-');
    dirs.push(d);
    const file = join(d.path, 'chats.sqlite');
    writeFileSync(file, 'this is not a database '.repeat(400));
    const before = readFileSync(file);
    const store = new ChatStore({ file }, createLogger());
    const err = (() => {
      try {
        store.list();
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'storage_damaged', details: { reason: 'corrupt' } });
    expect(err!.message).toMatch(/chat database .* is damaged .* left untouched/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('damage found while writing is storage_damaged too; a full disk and a busy file keep their codes', () => {
    const file = '/data/chats.sqlite';
    expect(storageError(sqliteError('SQLITE_CORRUPT', 'database disk image is malformed'), file)).toMatchObject({
      code: 'storage_damaged',
      message: expect.stringMatching(/chats\.sqlite is damaged/),
    });
    expect(storageError(sqliteError('SQLITE_NOTADB', 'file is not a database'), file).code).toBe('storage_damaged');
    expect(storageError(sqliteError('SQLITE_FULL', 'database or disk is full'), file).code).toBe('internal');
    expect(storageError(sqliteError('SQLITE_BUSY', 'database is locked'), file).code).toBe('conflict');
  });

  it('an AppError passes through as it is: its message is never wrapped twice', () => {
    const deleted = new AppError('aborted', 'This conversation was deleted: its reply was stopped.');
    expect(storageError(deleted, '/data/chats.sqlite')).toBe(deleted);
  });

  it('the code crosses the boundary: the wire shape, its schema and the web mode status know it', () => {
    const shape = new AppError('storage_damaged', 'The chat database is damaged.').toJSON();
    expect(isAppErrorShape(shape)).toBe(true);
    expect(appErrorSchema.safeParse(shape).success).toBe(true);
    expect(httpStatusFor('storage_damaged')).toBe(500);
  });
});
