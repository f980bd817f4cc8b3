import { toAppError, type AppError } from '@shared/errors';
import type { EngineKind } from '../../engines/types';

/**
 * One vocabulary for a failed reply, whichever engine answered: a message that says what happened and what to do, and
 * the action the chat offers as a button (details.action). Each engine words its own (`EngineKind.replyError`).
 */
export function replyError(e: unknown, kind: EngineKind, ctx: { model: string; started: boolean }): AppError {
  const err = toAppError(e);
  if (err.code === 'aborted') return err;
  return kind.replyError(err, ctx);
}
