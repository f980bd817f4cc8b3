import { AppError } from '@shared/errors';

/** Why a file could not be read, for the per-file error the indexing list shows beside the message. */
export type ExtractFailure =
  'too_large' | 'unsupported' | 'not_text' | 'no_text' | 'password' | 'damaged' | 'unreadable';

export function extractError(file: string, reason: ExtractFailure, message: string): AppError {
  return new AppError('invalid_input', message, { details: { file, reason } });
}
