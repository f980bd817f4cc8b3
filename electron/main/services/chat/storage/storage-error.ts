import { AppError } from '@shared/errors';
import { DbOpenError, sqliteCode } from './db-open';

/** A storage failure as an error a person can act on (full disk, locked or damaged file). */
export function storageError(e: unknown, file: string): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof DbOpenError)
    return new AppError(e.reason === 'corrupt' ? 'storage_damaged' : 'internal', e.message, {
      details: { reason: e.reason },
    });
  const code = sqliteCode(e);
  const message = String((e as Error)?.message ?? e);
  if (/CORRUPT|NOTADB/.test(code) || /malformed|not a database/i.test(message))
    return new AppError(
      'storage_damaged',
      `The chat database ${file} is damaged (${message}). It was left untouched.`,
      {
        details: { reason: 'corrupt' },
      },
    );
  if (/FULL/.test(code) || /disk is full/i.test(message))
    return new AppError('internal', `The disk is full: the chat could not be saved to ${file}. Free some space.`);
  if (/BUSY|LOCKED/.test(code) || /database is (locked|busy)/i.test(message))
    return new AppError('conflict', `The chat database is busy (another HubDesk window?). Try again in a moment.`);
  return new AppError('internal', `The chat database failed: ${message}`);
}
