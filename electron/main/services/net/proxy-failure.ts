import { networkErrorCode } from '../http/network-cause';
import type { Route } from './proxy-rules';

/** Codes HubDesk puts on a failed request through a proxy: read by network-cause.ts like the system's codes. */
export type ProxyCode = 'PROXY_AUTH' | 'PROXY_REFUSED' | 'PROXY_DOWN';

/** A request the proxy failed: which proxy, from where, and (for a refusal) its status. Still a "fetch failed". */
export interface ProxyFailure extends TypeError {
  code: ProxyCode;
  proxy: string;
  source: string;
  status?: number;
  /** For PROXY_DOWN: the system's reason the proxy could not be reached (ECONNREFUSED, ENOTFOUND…). */
  reason?: string;
}

/** Reasons a proxy itself cannot be reached: with a proxy, only the proxy is connected to (it connects onwards). */
const DOWN = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/;

function messages(e: unknown): string {
  const out: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    out.push(String((cur as Error).message ?? ''));
    cur = (cur as { cause?: unknown }).cause;
  }
  return out.join(' | ');
}

/**
 * A failed request through a proxy, told apart from the site's own failures: the proxy wants credentials (407),
 * refuses the site (its CONNECT answer), or cannot be reached. undici says these only in its messages ("Proxy
 * response (407) !== 200 when HTTP Tunneling", "Proxy Authentication Required (407)"); anything else (TLS, an
 * abort) is returned as it was.
 */
export function proxyFailure(e: unknown, route: Route): unknown {
  if (route.via !== 'proxy' || (e as Error)?.name === 'AbortError') return e;
  const text = messages(e);
  const status = Number(/Proxy response \((\d{3})\)/.exec(text)?.[1] ?? (/\(407\)/.test(text) ? 407 : NaN));
  const net = networkErrorCode(e);
  const code: ProxyCode | undefined =
    status === 407 ? 'PROXY_AUTH' : status ? 'PROXY_REFUSED' : net && DOWN.test(net) ? 'PROXY_DOWN' : undefined;
  if (!code) return e;
  return Object.assign(new TypeError('fetch failed', { cause: e }), {
    code,
    proxy: route.shown,
    source: route.source,
    ...(status ? { status } : {}),
    ...(code === 'PROXY_DOWN' ? { reason: net } : {}),
  }) satisfies ProxyFailure;
}
