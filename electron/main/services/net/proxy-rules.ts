import { AppError } from '@shared/errors';
import { isLoopbackHost } from './endpoints';

type Env = Record<string, string | undefined>;

/** Where the proxy in use was set: Settings → Network, the environment, or the system (desktop: PAC included). */
export type ProxySource = 'settings' | 'environment' | 'system';

/** The environment's proxy variables, lowercase first (curl's and undici's order), then uppercase. */
export interface EnvProxies {
  https?: { name: string; value: string };
  http?: { name: string; value: string };
  all?: { name: string; value: string };
  noProxy: string;
}

function pick(env: Env, name: string): { name: string; value: string } | undefined {
  for (const n of [name.toLowerCase(), name.toUpperCase()]) {
    const v = env[n]?.trim();
    if (v) return { name: n, value: v };
  }
  return undefined;
}

export function envProxies(env: Env): EnvProxies {
  return {
    https: pick(env, 'https_proxy'),
    http: pick(env, 'http_proxy'),
    all: pick(env, 'all_proxy'),
    noProxy: pick(env, 'no_proxy')?.value ?? '',
  };
}

/** The environment's proxy for a URL of this scheme, if any (NO_PROXY not applied here). */
export function envProxyFor(p: EnvProxies, protocol: string): { name: string; value: string } | undefined {
  return (protocol === 'https:' ? p.https : p.http) ?? p.all;
}

/**
 * A proxy address as HubDesk can use it: http:// or https://, a host, an optional port, credentials allowed. A bare
 * `host:port` (as many tools accept) is read as http://. Anything else is refused in words naming where it was set.
 */
export function parseProxy(raw: string, where: string): URL {
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AppError(
      'invalid_input',
      `${where} is not a proxy address (“${mask(text)}”): write it as http://host:port, or http://user:password@host:port.`,
    );
  }
  if (/^socks/i.test(url.protocol))
    throw new AppError(
      'invalid_input',
      `${where} names a SOCKS proxy (${url.protocol}//${url.host}): HubDesk speaks to HTTP(S) proxies only — ask for the company's HTTP proxy address.`,
    );
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppError(
      'invalid_input',
      `${where} must start with http:// or https:// (it has ${url.protocol}//): write it as http://host:port.`,
    );
  if (!url.hostname) throw new AppError('invalid_input', `${where} has no host: write it as http://host:port.`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new AppError(
      'invalid_input',
      `${where} is a proxy address, not a page: write only http://host:port (without “${url.pathname}${url.search}”).`,
    );
  return url;
}

/** The passwords in the proxy addresses HubDesk holds (environment, Settings): masked in the log like the keys. */
export function proxyPasswords(env: Env, manual: string | undefined): string[] {
  const p = envProxies(env);
  return [p.https?.value, p.http?.value, p.all?.value, manual].flatMap((raw) => {
    const password = raw && /:\/\/[^/@]*:([^@/]+)@/.exec(raw)?.[1];
    if (!password) return [];
    try {
      return [decodeURIComponent(password), password];
    } catch {
      return [password];
    }
  });
}

/**
 * A proxy URL to show: its password hidden. Written out by hand: URL's password setter would percent-encode the mask
 * (`%E2%80%A2…`). A proxy address has no path (parseProxy), so scheme, credentials and host are all of it.
 */
export function shownProxy(url: URL): string {
  const auth = url.username || url.password ? `${url.username}${url.password ? ':•••' : ''}@` : '';
  return `${url.protocol}//${auth}${url.host}`;
}

/** A proxy address as written, its password hidden whether or not it parses. */
export function shownText(text: string): string {
  return mask(text.trim());
}

/** Masks anything after `user:` in a text that failed to parse as a URL, so an error never repeats a password. */
function mask(text: string): string {
  return text.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:•••@');
}

/**
 * Whether `url` goes direct under a NO_PROXY-style list (curl's rules, as undici reads them): `*` bypasses all; an
 * entry matches its host and every subdomain (`example.com`, `.example.com` and `*.example.com` alike); an entry with
 * a port matches that port only; IP addresses match exactly. Commas or spaces separate entries.
 */
export function bypassed(url: URL, list: string): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of list.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!m) continue;
    if (m[2] && m[2] !== port) continue;
    const name = m[1].replace(/^\[|\]$/g, '').replace(/^\*?\./, '');
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** This machine: never through a proxy, whatever the environment or the system says (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(url: URL): boolean {
  return isLoopbackHost(url.hostname);
}

/**
 * The first usable entry of a PAC answer (`session.resolveProxy`: "PROXY h:p; DIRECT"): an HTTP(S) proxy URL, or
 * undefined for DIRECT. SOCKS entries are passed over (HubDesk speaks to HTTP proxies only).
 */
export function fromPac(answer: string): { url?: string; skipped?: string } {
  let skipped: string | undefined;
  for (const part of answer.split(';')) {
    const [kind, hostPort] = part.trim().split(/\s+/);
    const k = kind?.toUpperCase();
    if (!k) continue;
    if (k === 'DIRECT') return { skipped };
    if ((k === 'PROXY' || k === 'HTTP') && hostPort) return { url: `http://${hostPort}`, skipped };
    if (k === 'HTTPS' && hostPort) return { url: `https://${hostPort}`, skipped };
    skipped ??= part.trim();
  }
  return { skipped };
}

/** How a request to a URL goes: direct (and why), or through a proxy (shown without its password) and from where. */
export type Route =
  | { via: 'direct'; why: 'loopback' | 'bypass' | 'no-proxy' }
  | { via: 'proxy'; proxy: URL; shown: string; source: ProxySource };
