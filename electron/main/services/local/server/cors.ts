import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostAllowed, HttpError, sendError } from './http';
import { lanHosts } from './lan';

// The browser boundary. A page can send a request to 127.0.0.1 (a "simple" POST needs no preflight), but without
// `Access-Control-Allow-Origin` it cannot read the answer, and with a JSON body or an Authorization header its
// browser asks first (the preflight). So no page gets a grant unless the person allowlisted its origin, and a
// request from any other page is refused outright, before the key is even looked at.

/** Headers a preflight may ask for: the OpenAI and Anthropic JS clients' own, plus `x-stainless-*` (their telemetry). */
const ALLOWED_HEADERS = new Set([
  'authorization',
  'content-type',
  'x-api-key',
  'anthropic-version',
  'anthropic-beta',
  // The Anthropic client sends it from a browser (`dangerouslyAllowBrowser`); without it, every preflight fails.
  'anthropic-dangerous-direct-browser-access',
  'openai-organization',
  'openai-project',
]);
const ALLOWED_METHODS = ['GET', 'POST', 'OPTIONS'];
/** Browsers cap it (Chromium at 2 h); each real request is still checked against the allowlist. */
const PREFLIGHT_MAX_AGE = '7200';

const headerAllowed = (h: string) => ALLOWED_HEADERS.has(h) || /^x-stainless-[a-z0-9-]+$/.test(h);

export interface GateOptions {
  port: number;
  /** Serving on the network: this machine's own addresses and names are valid Hosts too. */
  lan: boolean;
  /** Normalized origins (`scheme://host[:port]`) granted CORS. */
  origins: readonly string[];
}

/**
 * What is decided before the key: the Host (DNS rebinding), then the Origin (CORS). Answers a refusal (403 in
 * OpenAI's shape) or a preflight (204) itself and returns it; otherwise adds the grant's headers to `res` (Node
 * merges them into the route's `writeHead`) and returns undefined for the route to go on.
 */
export function gate(
  opts: GateOptions,
  req: IncomingMessage,
  res: ServerResponse,
): { answered: 'refused'; error: string } | { answered: 'preflight' } | undefined {
  const refuse = (err: HttpError) => (sendError(res, err), { answered: 'refused' as const, error: err.message });
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hostAllowed(req, opts.port) && !(opts.lan && lanHosts(opts.port).has(host)))
    return refuse(
      new HttpError(
        403,
        opts.lan
          ? 'Requests must be addressed to 127.0.0.1, localhost, or this machine’s network address or name.'
          : 'Requests must be addressed to 127.0.0.1 or localhost.',
        'permission_error',
      ),
    );
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (!opts.origins.includes(origin))
    return refuse(
      new HttpError(
        403,
        `Requests from the web page ${origin} are not allowed: add its origin under "Allowed origins" in HubDesk’s Local server card (Local models → Built-in engine) to let it use this server.`,
        'permission_error',
        'origin_not_allowed',
      ),
    );
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  const method = req.headers['access-control-request-method'];
  if (req.method !== 'OPTIONS' || typeof method !== 'string') {
    res.setHeader('access-control-expose-headers', 'retry-after');
    return undefined;
  }
  const asked = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const refusedHeaders = asked.filter((h) => !headerAllowed(h));
  if (!ALLOWED_METHODS.includes(method.toUpperCase()) || refusedHeaders.length) {
    res.removeHeader('access-control-allow-origin');
    return refuse(
      new HttpError(
        403,
        refusedHeaders.length
          ? `This server does not take the header${refusedHeaders.length > 1 ? 's' : ''} ${refusedHeaders.join(', ')} from a web page.`
          : `This server does not answer ${method} requests.`,
        'permission_error',
        'preflight_refused',
      ),
    );
  }
  res.writeHead(204, {
    'access-control-allow-methods': ALLOWED_METHODS.join(', '),
    ...(asked.length ? { 'access-control-allow-headers': asked.join(', ') } : {}),
    'access-control-max-age': PREFLIGHT_MAX_AGE,
    'content-length': '0',
  });
  res.end();
  return { answered: 'preflight' };
}
