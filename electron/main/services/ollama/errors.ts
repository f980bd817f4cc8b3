import { AppError, type ErrorCode } from '@shared/errors';
import { TimeoutError, networkErrorCode } from '../http/timeout-fetch';
import { companyNetworkProblem } from '../net/network-words';

function codeForStatus(status: number): ErrorCode {
  if (status === 400) return 'invalid_input';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 499) return 'aborted';
  if (status === 503) return 'unavailable';
  if (status === 429) return 'rate_limited';
  return 'upstream';
}

/** Turns whatever the ollama client threw into a message a person can act on, keeping Ollama's own text. */
export function ollamaError(e: unknown, host: string): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof TimeoutError) {
    return new AppError(
      'timeout',
      `Ollama at ${host} did not answer within ${Math.round(e.ms / 1000)} s. Is the server overloaded, or the host wrong?`,
    );
  }
  const err = e as { name?: string; message?: string; status_code?: number; error?: string };
  if (err?.name === 'ResponseError' && typeof err.status_code === 'number') {
    const text = err.error || err.message || `HTTP ${err.status_code}`;
    return new AppError(codeForStatus(err.status_code), text, { status: err.status_code });
  }
  if (err?.name === 'AbortError') return new AppError('aborted', 'Cancelled.');
  const company = companyNetworkProblem(e, host);
  if (company) return company;
  const net = networkErrorCode(e);
  if (net === 'ECONNREFUSED') {
    return new AppError(
      'unavailable',
      `Ollama is not running at ${host}. Start it with "ollama serve" (or open the Ollama app), or change the host in Settings.`,
      { details: { reason: net } },
    );
  }
  if (net) {
    return new AppError('unavailable', `Cannot reach Ollama at ${host} (${net}). Check the host in Settings.`, {
      details: { reason: net },
    });
  }
  const message = err?.message || String(e);
  if (message === 'fetch failed') {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    return new AppError(
      'unavailable',
      `Cannot reach Ollama at ${host}${cause ? ` (${cause})` : ''}. Check the host in Settings.`,
    );
  }
  return new AppError('upstream', message);
}

/** gin's answer for a path it has no route for: what an Ollama older than an endpoint answers for it. */
export function isMissingEndpoint(err: AppError): boolean {
  return err.status === 404 && err.message === '404 page not found';
}

/** An Ollama without /api/<what>: most likely older than that endpoint, which an update brings. */
export function missingEndpointError(what: string, host: string, version: string | undefined): AppError {
  return new AppError(
    'unavailable',
    `Ollama${version ? ` ${version}` : ''} at ${host} cannot ${what} models (it has no /api/${what}): it is likely too old. Update Ollama (https://ollama.com/download), then try again.`,
  );
}
