import diagnostics from 'node:diagnostics_channel';
import type { TLSSocket } from 'node:tls';
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import type { ConnectionTest, NetworkRoute } from '@shared/contract/network';
import { AppError } from '@shared/errors';
import { networkCause } from '../http/network-cause';
import { companyNetworkProblem } from './network-words';
import type { Route } from './proxy-rules';
import { proxyFailure } from './proxy-failure';

const TEST_TIMEOUT_MS = 15_000;

/** undici announces each new connection here, with its socket: the TLS one carries the certificate that answered. */
const CONNECTED = 'undici:client:connected';

export function shownRoute(route: Route): NetworkRoute {
  return route.via === 'direct'
    ? { via: 'direct', why: route.why }
    : { via: 'proxy', proxy: route.shown, source: route.source };
}

/**
 * One GET to `url` on a dispatcher of its own (so a new connection is made and its certificate seen), redirects not
 * followed: how it went, the status, the time, and the TLS certificate that answered, or the failure in words.
 */
export async function testConnection(url: URL, route: Route, dispatcher: Dispatcher): Promise<ConnectionTest> {
  let tls: ConnectionTest['tls'];
  const onConnect = (msg: unknown) => {
    const { connectParams, socket } = msg as { connectParams: { hostname: string }; socket: TLSSocket };
    if (connectParams.hostname !== url.hostname || typeof socket.getPeerCertificate !== 'function') return;
    const cert = socket.getPeerCertificate();
    if (cert?.issuer)
      tls = { issuer: dn(cert.issuer), subject: dn(cert.subject), validTo: new Date(cert.valid_to).toISOString() };
  };
  diagnostics.subscribe(CONNECTED, onConnect);
  const started = performance.now();
  const base = { url: url.href, route: shownRoute(route) };
  try {
    const res = await undiciFetch(url, {
      dispatcher,
      redirect: 'manual',
      signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      headers: { accept: '*/*' },
    });
    await res.body?.cancel();
    return { ...base, ok: true, status: res.status, ms: Math.round(performance.now() - started), tls };
  } catch (e) {
    const err = proxyFailure(e, route);
    return { ...base, ok: false, ms: Math.round(performance.now() - started), tls, error: words(err, url).toJSON() };
  } finally {
    diagnostics.unsubscribe(CONNECTED, onConnect);
  }
}

/** A certificate name in one line: its organisation and common name. */
function dn(n: Record<string, string | string[] | undefined>): string {
  return [n.O, n.CN].flat().filter(Boolean).join(' · ') || JSON.stringify(n);
}

function words(e: unknown, url: URL): AppError {
  const company = companyNetworkProblem(e, url.host);
  if (company) return company;
  if ((e as Error)?.name === 'TimeoutError')
    return new AppError('timeout', `${url.host} did not answer within ${TEST_TIMEOUT_MS / 1000} s.`);
  const { kind, code } = networkCause(e);
  if (kind === 'unknown-host')
    return new AppError(
      'unavailable',
      `No host named ${url.hostname} was found (${code}): check the address, or whether it needs the company proxy.`,
    );
  if (kind === 'refused') return new AppError('unavailable', `Nothing is listening at ${url.host} (${code}).`);
  return new AppError(
    'unavailable',
    `Could not reach ${url.host} (${code ?? (e as Error)?.message ?? 'no reason given'}).`,
  );
}
