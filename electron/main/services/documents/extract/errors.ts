import { AppError } from '@shared/errors';

/** Why a file could not be read, for the per-file error the indexing list shows beside the message. */
export type ExtractFailure =
  | 'too_large'
  | 'too_deep'
  | 'too_slow'
  | 'too_much_memory'
  | 'interrupted'
  | 'link'
  | 'unsupported'
  | 'not_text'
  | 'no_text'
  | 'password'
  | 'damaged'
  | 'unreadable';

export function extractError(file: string, reason: ExtractFailure, message: string): AppError {
  return new AppError('invalid_input', message, { details: { file, reason } });
}

export function tooMuchText(file: string, max: number): AppError {
  return extractError(
    file,
    'too_large',
    `This file holds more than ${max >= 1e6 ? `${(max / 1e6).toLocaleString('en')} million` : max.toLocaleString('en')} characters of text: HubDesk does not index it. Split it into smaller files.`,
  );
}
