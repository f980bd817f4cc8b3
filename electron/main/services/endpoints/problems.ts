import type { EndpointPreset } from '@shared/contract/endpoints';
import { AppError } from '@shared/errors';
import { networkCause } from '../http/network-cause';
import { badPortProblem, companyNetworkProblem } from '../net/network-words';
import { serverMessage } from '../http/server-message';
import { startHints } from './presets';

/**
 * The server's words as the doctor quotes them: from JSON only (a text body is most often a page, not a message),
 * and short enough for a one-line report.
 */
export function quotable(body: unknown): string | undefined {
  return typeof body === 'string' ? undefined : serverMessage(body)?.slice(0, 300) || undefined;
}

/** A deadline the whole check runs under: its signal and how long it was. */
export interface Deadline {
  signal: AbortSignal;
  ms: number;
}

/** Why a request to `url` could not be answered (the deadline, a refused port, DNS, TLS…), in words to act on. */
export function networkProblem(e: unknown, url: string, preset: EndpointPreset, deadline?: Deadline): AppError {
  const { host, hostname, protocol } = new URL(url);
  const badPort = badPortProblem(e, url);
  if (badPort) return badPort;
  const company = companyNetworkProblem(e, host);
  if (company && !deadline?.signal.aborted) return company;
  const { kind, code } = networkCause(e);
  if (deadline?.signal.aborted || kind === 'timeout' || (e as Error)?.name === 'TimeoutError')
    return new AppError(
      'timeout',
      `No answer from ${host} within ${deadline ? `${Math.round(deadline.ms / 100) / 10} s` : 'the time allowed'} — the server may be busy (loading a model?) or something drops the connection; check it runs and press Test again.`,
    );
  switch (kind) {
    case 'refused':
      return new AppError('unavailable', `Nothing is listening at ${host} — ${startHints[preset]}, or check the port.`);
    case 'unknown-host':
      return new AppError(
        'unavailable',
        `No host named ${hostname} was found — check the spelling of the address, or that this machine is on that host's network (VPN?).`,
      );
    case 'unreachable':
      return new AppError('unavailable', `${host} cannot be reached from this machine — check the network or VPN.`);
    case 'not-https':
      // "Try http://" fits an https address; EPROTO met over http:// (after a redirect) is reported as it is.
      if (code !== 'EPROTO' || protocol === 'https:')
        return new AppError('unavailable', `${host} does not answer https — try the address with http://.`);
      break;
    case 'reset':
      return new AppError(
        'unavailable',
        `${host} closed the connection without answering — check that it is an HTTP server on this port.`,
      );
  }
  return new AppError(
    'unavailable',
    `Could not reach ${host} (${code ?? ((e as Error)?.message || 'no reason given')}).`,
  );
}

/** What an HTTP error status from the server means for the user. */
export function statusProblem(status: number, url: string, body: unknown, hasKey: boolean): AppError {
  const { host } = new URL(url);
  const words = quotable(body);
  const quote = words ? ` The server said: "${words}"` : '';
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
