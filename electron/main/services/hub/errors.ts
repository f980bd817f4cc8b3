import { AppError } from '@shared/errors';
import { TimeoutError, networkErrorCode } from '../http/timeout-fetch';
import { companyNetworkProblem } from '../net/network-words';

/** What a request was for: the messages name it so a person knows what failed. */
export interface HubRequestContext {
  host: string;
  /** e.g. `model "openai/whisper-large-v3"` or `model search`. */
  what: string;
  tokenSet: boolean;
}

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

function hubText(body: unknown): string | undefined {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string')
    return (body as { error: string }).error;
  if (typeof body === 'string' && body.trim() && body.length < 300) return body.trim();
  return undefined;
}

/** An HTTP error status from the Hub, as a message a person can act on. */
export function hubStatusError(
  status: number,
  body: unknown,
  ctx: HubRequestContext,
  retryAfterMs?: number,
  /** The Hub's `X-Error-Code` (RepoNotFound, EntryNotFound, GatedRepo…). */
  errorCode?: string,
): AppError {
  const hub = hubText(body);
  const details: Record<string, unknown> = {};
  if (hub) details.hubMessage = hub;
  if (errorCode) details.hubErrorCode = errorCode;
  if (errorCode === 'GatedRepo' && (status === 401 || status === 403)) {
    return new AppError(
      status === 401 ? 'unauthorized' : 'forbidden',
      ctx.tokenSet
        ? `The ${ctx.what} is gated and your token has no access yet: accept the terms on its page on huggingface.co with the account of your token, then try again.`
        : `The ${ctx.what} is gated: accept the terms on its page on huggingface.co, then add a Hugging Face token in Settings.`,
      { status, details: { ...details, gated: true } },
    );
  }
  if (errorCode === 'EntryNotFound' && status === 404) {
    return new AppError('not_found', `The ${ctx.what} does not exist in this repo.`, { status, details });
  }
  if (status === 401) {
    return new AppError(
      'unauthorized',
      ctx.tokenSet
        ? `The Hub refused your Hugging Face token for ${ctx.what}. Check the token in Settings, and that you accepted the model's conditions on its page if it is gated.`
        : `The ${ctx.what} is gated or private: it needs a Hugging Face token. Add one in Settings (Hugging Face token), then try again.`,
      { status, details },
    );
  }
  if (status === 403) {
    return new AppError(
      'forbidden',
      `The Hub denied access to the ${ctx.what}. If it is gated, request access on its page on huggingface.co with the account of your token.`,
      { status, details },
    );
  }
  if (status === 404) {
    return new AppError('not_found', `The Hub at ${ctx.host} has no ${ctx.what}. Check the spelling of the id.`, {
      status,
      details,
    });
  }
  if (status === 429) {
    const secs = retryAfterMs !== undefined ? Math.max(1, Math.ceil(retryAfterMs / 1000)) : undefined;
    if (secs !== undefined) details.retryAfterSeconds = secs;
    return new AppError(
      'rate_limited',
      `The Hub is rate-limiting requests${ctx.tokenSet ? '' : ' (a Hugging Face token raises the limit)'}. ${
        secs !== undefined ? `Try again in ${secs} s.` : 'Try again in a minute.'
      }`,
      { status, details },
    );
  }
  if (status >= 500) {
    return new AppError(
      status === 500 ? 'upstream' : 'unavailable',
      `The Hub at ${ctx.host} is having trouble (HTTP ${status}) with the ${ctx.what}. Try again in a moment; the embedded catalogue keeps working.`,
      { status, details },
    );
  }
  return new AppError('upstream', `The Hub answered HTTP ${status} for the ${ctx.what}${hub ? `: ${hub}` : ''}.`, {
    status,
    details,
  });
}

/** A failure to get any answer (offline, DNS, refused, timeout). */
export function hubNetworkError(e: unknown, ctx: HubRequestContext): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof TimeoutError) {
    return new AppError(
      'timeout',
      `The Hub at ${ctx.host} did not answer within ${Math.round(e.ms / 1000)} s. Check your connection and try again.`,
    );
  }
  if ((e as { name?: string })?.name === 'AbortError') return new AppError('aborted', 'Cancelled.');
  const company = companyNetworkProblem(e, ctx.host);
  if (company) return company;
  const net = networkErrorCode(e);
  return new AppError(
    'unavailable',
    `Cannot reach the Hub at ${ctx.host}${net ? ` (${net})` : ''}: you seem to be offline, or the Hub endpoint in Settings is wrong. The embedded catalogue keeps working.`,
    { details: { reason: net ?? 'network', offline: true } },
  );
}
