import { AppError } from '@shared/errors';
import { CappedReadError, capWords } from '../http/read-json-capped';

/** The bytes of an error answer read for its message. */
export const ERROR_MAX_BYTES = 64 * 1024;

/** Why a body could not be read, in words. */
export function bodyError(e: unknown, host: string, what: string): AppError {
  if (e instanceof CappedReadError && e.kind === 'too-large')
    return new AppError(
      'upstream',
      `The Hub at ${host} sent more than ${capWords(e.limit)} for the ${what}: not read.`,
    );
  if (e instanceof CappedReadError && e.kind === 'timeout')
    return new AppError(
      'timeout',
      `The Hub at ${host} did not finish its answer for the ${what} within ${e.limit / 1000} s.`,
    );
  return new AppError('upstream', `The Hub at ${host} sent an unreadable answer for the ${what}.`);
}
