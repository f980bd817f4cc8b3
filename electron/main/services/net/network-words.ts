import { AppError } from '@shared/errors';
import { networkCause } from '../http/network-cause';
import type { ProxyFailure } from './proxy-failure';

/** Where a person fixes trust and proxies: named once, so every message points to the same place. */
const NETWORK_SETTINGS = 'Settings → Network';

/** TLS codes whose cause is an authority this machine does not trust (a company proxy inspecting TLS, mostly). */
const UNTRUSTED =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?)$/;

function tlsWords(code: string, host: string): string {
  if (UNTRUSTED.test(code))
    return code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
      ? `${host} answered with a self-signed certificate this machine does not trust (${code}). If it is your company's server, add its certificate in ${NETWORK_SETTINGS} → Extra certificates (a PEM file).`
      : `The certificate for ${host} is signed by an authority this machine does not trust (${code}). Behind a company proxy that inspects TLS, add the company's CA certificate in ${NETWORK_SETTINGS} → Extra certificates (a PEM file), or set NODE_EXTRA_CA_CERTS.`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `The certificate presented for ${host} belongs to another name (${code}): something between you and ${host} answers in its place, or the address is wrong.`;
  if (code === 'CERT_HAS_EXPIRED')
    return `The certificate for ${host} has expired (${code}). Check this computer's date and time; if they are right, the server (or the proxy in between) must renew its certificate.`;
  if (code === 'CERT_NOT_YET_VALID')
    return `The certificate for ${host} is not valid yet (${code}): check this computer's date and time.`;
  return `The TLS connection to ${host} failed (${code}). If a company proxy inspects TLS, add its CA certificate in ${NETWORK_SETTINGS} → Extra certificates.`;
}

/**
 * The words for a failure on a company network — the proxy (credentials, a refusal, unreachable) or a certificate —
 * or undefined for the other causes, which each caller words for its own reader. `host` is the site asked for.
 */
export function companyNetworkProblem(e: unknown, asked: string): AppError | undefined {
  const cause = networkCause(e);
  const host = requestHost(e) ?? (/^[a-z][a-z0-9+.-]*:\/\//i.test(asked) ? new URL(asked).host : asked);
  const proxy = findProxyFailure(e);
  const reason = { details: { reason: cause.kind, code: cause.code } };
  switch (cause.kind) {
    case 'proxy-auth':
      return new AppError(
        'unavailable',
        `The proxy at ${proxy?.proxy} asks for a user name and password (407). Give them in the proxy address, as http://user:password@${hostOf(proxy)}, in ${NETWORK_SETTINGS} (kept like your other secrets) or in ${proxy?.source === 'environment' ? 'HTTPS_PROXY' : 'the proxy setting'}.`,
        reason,
      );
    case 'proxy-refused':
      return new AppError(
        'unavailable',
        `The proxy at ${proxy?.proxy} refused to connect to ${host} (${proxy?.status}). Your company's proxy may block this site: ask your IT team to allow it, or add ${host} to the bypass list in ${NETWORK_SETTINGS} if it is reachable directly.`,
        reason,
      );
    case 'proxy-down':
      return new AppError(
        'unavailable',
        `Cannot reach the proxy at ${proxy?.proxy} (${proxy?.reason ?? cause.code}), set ${sourceWords(proxy?.source)}. Check its address, and that this computer is on the company network or VPN.`,
        reason,
      );
    case 'tls':
      return new AppError('unavailable', tlsWords(cause.code, host), reason);
  }
  return undefined;
}

/**
 * The words for an address fetch refuses to call before connecting: a "bad port" of the Fetch standard (6000, 9,
 * 25…), which undici reports as `TypeError: fetch failed` caused by `Error: bad port`. Undefined for other errors.
 */
export function badPortProblem(e: unknown, url: string): AppError | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    if ((cur as Error).message === 'bad port') {
      const port = new URL(url).port;
      return new AppError(
        'invalid_input',
        `Port ${port} is one browsers and Node refuse to call (a "bad port" of the Fetch standard): run the server on another port, such as 8080, and change the address.`,
        { details: { reason: 'bad-port', port } },
      );
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function requestHost(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    const host = (cur as { requestHost?: string }).requestHost;
    if (host) return host;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function findProxyFailure(e: unknown): ProxyFailure | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    if ((cur as Partial<ProxyFailure>).proxy !== undefined) return cur as ProxyFailure;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(p: ProxyFailure | undefined): string {
  try {
    return new URL(p?.proxy ?? '').host;
  } catch {
    return 'proxy:port';
  }
}

function sourceWords(source: string | undefined): string {
  if (source === 'settings') return `in ${NETWORK_SETTINGS}`;
  if (source === 'environment') return 'by the environment (HTTPS_PROXY / HTTP_PROXY)';
  return "by this computer's proxy settings";
}
