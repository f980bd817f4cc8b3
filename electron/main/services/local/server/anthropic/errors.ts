import type { ServerResponse } from 'node:http';
import { sendJson, type HttpError } from '../http';

/** Anthropic's error type for a status (its errors page): the client libraries pick their error class by status. */
function errorType(err: HttpError): string {
  switch (err.status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 409:
      return 'conflict_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
      // The model's queue is full: come back after Retry-After. Any other 503 is the engine failing.
      return err.retryAfter ? 'overloaded_error' : 'api_error';
    case 504:
      return 'timeout_error';
  }
  return err.status >= 500 ? 'api_error' : 'invalid_request_error';
}

/** An error in Anthropic's shape: `{type: "error", error: {type, message}}`. */
export function anthropicError(err: HttpError): { type: 'error'; error: { type: string; message: string } } {
  return { type: 'error', error: { type: errorType(err), message: err.message } };
}

/** An error answer in Anthropic's shape, with `Retry-After` when the client should come back later. */
export function sendAnthropicError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, anthropicError(err), err.retryAfter ? { 'retry-after': String(err.retryAfter) } : {});
}
