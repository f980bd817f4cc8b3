import { AppError } from '@shared/errors';
import type { ReplyAction } from '@shared/reply-action';

/** The error with a message in the chat's words and the button it offers; the original message kept in details. */
export const withAction = (e: AppError, message: string, action?: ReplyAction, code = e.code): AppError =>
  new AppError(code, message, {
    status: e.status,
    details: { ...((e.details as object | undefined) ?? {}), original: e.message, ...(action ? { action } : {}) },
  });

/** What the HTTP client says when a stream stops without its end (the server went away). */
export const STREAM_CUT =
  /^terminated$|other side closed|ECONNRESET|socket hang up|Did not receive done or success response/i;

/** The error's message with the reason some errors keep apart (details.reason). */
export const errorText = (err: AppError): string =>
  `${err.message} ${String((err.details as { reason?: string } | undefined)?.reason ?? '')}`;

/** Codes a person can retry: the server busy, slow or gone for now. */
const RETRYABLE = ['unavailable', 'timeout', 'rate_limited', 'upstream'];

/** A retryable error with the Retry button; any other as it is. */
export const retryable = (err: AppError): AppError =>
  RETRYABLE.includes(err.code) ? withAction(err, err.message, { kind: 'retry' }) : err;
