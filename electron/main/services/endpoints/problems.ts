import type { EndpointPreset } from '@shared/contract/endpoints';
import { AppError } from '@shared/errors';
import { networkErrorCode } from '../http/timeout-fetch';
import { startHints } from './presets';

/** TLS and DNS codes node puts on a failed fetch's cause (networkErrorCode reads the plain `E…` ones). */
function otherCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && /^(EAI_|ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code))
      return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The server's own words in an error body (OpenAI, llama.cpp, vLLM, LM Studio and FastAPI shapes), if any. */
export function serverMessage(body: unknown): string | undefined {
  const o = body as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null) return undefined;
  const err = o.error as Record<string, unknown> | string | undefined;
  const text =
    typeof err === 'string'
      ? err
      : typeof err?.message === 'string'
        ? err.message
        : typeof o.message === 'string'
          ? o.message
          : typeof o.detail === 'string'
            ? o.detail
            : undefined;
  return text ? text.slice(0, 300) : undefined;
}

/** Why a request to `url` could not be answered (the deadline, a refused port, DNS, TLS…), in words to act on. */
/** A deadline the whole check runs under: its signal and how long it was. */
export interface Deadline {
  signal: AbortSignal;
  ms: number;
}

export function networkProblem(e: unknown, url: string, preset: EndpointPreset, deadline?: Deadline): AppError {
  const { host, hostname, protocol } = new URL(url);
  const code = otherCode(e) ?? networkErrorCode(e);
  if (deadline?.signal.aborted || code === 'ETIMEDOUT' || (e as Error)?.name === 'TimeoutError')
    return new AppError(
      'timeout',
      `No answer from ${host} within ${deadline ? `${Math.round(deadline.ms / 100) / 10} s` : 'the time allowed'} — the server may be busy (loading a model?) or something drops the connection; check it runs and press Test again.`,
    );
  if (code === 'ECONNREFUSED')
    return new AppError('unavailable', `Nothing is listening at ${host} — ${startHints[preset]}, or check the port.`);
  if (code === 'ENOTFOUND' || code?.startsWith('EAI_'))
    return new AppError(
      'unavailable',
      `No host named ${hostname} was found — check the spelling of the address, or that this machine is on that host's network (VPN?).`,
    );
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new AppError('unavailable', `${host} cannot be reached from this machine — check the network or VPN.`);
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (code === 'EPROTO' && protocol === 'https:'))
    return new AppError('unavailable', `${host} does not answer https — try the address with http://.`);
  if (code && /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|ERR_SSL/.test(code))
    return new AppError(
      'unavailable',
      `The TLS certificate of ${host} is not trusted (${code}) — for a self-signed certificate, add its CA to this machine (NODE_EXTRA_CA_CERTS), or use http:// on a network you trust.`,
    );
  if (code === 'ECONNRESET')
    return new AppError(
      'unavailable',
      `${host} closed the connection without answering — check that it is an HTTP server on this port.`,
    );
  return new AppError(
    'unavailable',
    `Could not reach ${host} (${code ?? ((e as Error)?.message || 'no reason given')}).`,
  );
}

/** What an HTTP error status from the server means for the user. */
export function statusProblem(status: number, url: string, body: unknown, hasKey: boolean): AppError {
  const { host } = new URL(url);
  const said = serverMessage(body);
  const quote = said ? ` The server said: "${said}"` : '';
  if (status === 401 || status === 403) {
    if (!hasKey)
      return new AppError(
        'unauthorized',
        `${host} wants an API key (${status}) and none is set — enter the key the server was started with (llama-server --api-key, vLLM --api-key, LM Studio's API token) and test again.`,
        { status },
      );
    return new AppError(
      status === 401 ? 'unauthorized' : 'forbidden',
      status === 401
        ? `${host} refused the key (401): it is not the one the server expects — enter it again.`
        : `${host} refused access with this key (403): it is known but not allowed here — check its permissions.`,
      { status },
    );
  }
  if (status === 503)
    return new AppError(
      'unavailable',
      `${host} is not ready (503), likely still loading its model — wait and test again.${quote}`,
      {
        status,
      },
    );
  if (status === 429)
    return new AppError('rate_limited', `${host} is rate-limiting requests (429) — wait and try again.${quote}`, {
      status,
    });
  return new AppError('upstream', `${host} answered ${status}.${quote}`, { status });
}
