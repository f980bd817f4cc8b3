import { AppError } from '@shared/errors';
import { TimeoutError, networkErrorCode, timeoutFetch } from '../http/timeout-fetch';
import { companyNetworkProblem } from '../net/network-words';
import { REDACTED, type Logger } from '../log';

const FAL_TOKEN_SECONDS = 120;

/**
 * The app alias fal's token endpoint expects, as @fal-ai/client's parseEndpointId reads it:
 * `fal-ai/fast-sdxl` → `fast-sdxl`, `fal-ai/flux/dev` → `flux`; an id without an owner is invalid.
 */
export function falAppAlias(endpointId: string): string {
  const parts = endpointId.split('/').filter(Boolean);
  if (parts.length < 2)
    throw new AppError('invalid_input', `Invalid app id: ${endpointId} (expected owner/app, e.g. fal-ai/flux/dev).`);
  return parts[1];
}

interface FalServiceOptions {
  restBase: () => string;
  /** The key bound to the REST host, if any: only checked here; the bound fetch sends it. */
  key: () => string | undefined;
  /** True when a key is set but not bound to the configured REST host (so none was given). */
  withheld?: () => boolean;
  log: Logger;
  timeoutMs?: number;
  /** The key-bound fetch: it alone puts the fal key on requests (net/bound-fetch.ts). */
  fetch: typeof fetch;
}

interface FalTempToken {
  token: string;
  app: string;
  expiresInSeconds: number;
  expiresAt: number;
}

/** Temporary fal tokens: the long-lived FAL_KEY stays in main; only a 2-minute token for one app leaves it. */
export class FalService {
  constructor(private readonly opts: FalServiceOptions) {}

  async tempToken(endpointId: string): Promise<FalTempToken> {
    const app = falAppAlias(endpointId);
    const base = this.opts.restBase().replace(/\/+$/, '');
    const key = this.opts.key();
    if (!key && this.opts.withheld?.())
      throw new AppError(
        'forbidden',
        `Your fal key is only sent to fal (rest.fal.ai) or a host you approved: ${base} is not approved. Reset the fal address in Settings, or approve it there.`,
      );
    if (!key) throw new AppError('unauthorized', 'No fal key is set. Add FAL_KEY in Settings to get temporary tokens.');
    const ms = this.opts.timeoutMs ?? 10_000;
    const f = timeoutFetch(ms, this.opts.fetch);
    let res: Response;
    try {
      res = await f(`${base}/tokens/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ allowed_apps: [app], token_expiration: FAL_TOKEN_SECONDS }),
      });
    } catch (e) {
      if (e instanceof TimeoutError)
        throw new AppError('timeout', `fal did not answer within ${Math.round(ms / 1000)} s. Try again in a moment.`);
      const company = companyNetworkProblem(e, new URL(base).host);
      if (company) throw company;
      const net = networkErrorCode(e);
      throw new AppError('unavailable', `Cannot reach fal at ${base}${net ? ` (${net})` : ''}. Check your connection.`);
    }
    const text = await res.text().catch(() => '');
    // The bound fetch has masked any secret in the answer.
    if (!res.ok) throw this.statusError(res.status, text);
    const token = parseToken(text);
    if (!token) throw new AppError('upstream', 'fal answered without a token.');
    // A server that echoes the key back as a "token" would hand the long-lived key to the page (masked on the way).
    if (token.includes(REDACTED) || token.includes(key) || key.includes(token))
      throw new AppError('upstream', `${base} answered with the key itself instead of a temporary token.`);
    this.opts.log.info('fal temporary token issued', { app });
    return { token, app, expiresInSeconds: FAL_TOKEN_SECONDS, expiresAt: Date.now() + FAL_TOKEN_SECONDS * 1000 };
  }

  private statusError(status: number, text: string): AppError {
    let detail = '';
    try {
      const j = JSON.parse(text) as { detail?: unknown };
      if (typeof j?.detail === 'string') detail = j.detail;
    } catch {
      detail = text.slice(0, 200);
    }
    const suffix = detail ? ` (${detail})` : '';
    if (status === 401)
      return new AppError('unauthorized', `fal rejected the key: check FAL_KEY in Settings${suffix}.`, { status });
    if (status === 403)
      return new AppError('forbidden', `This fal key may not create tokens for that app${suffix}.`, { status });
    if (status === 429)
      return new AppError('rate_limited', `fal is rate-limiting token requests: wait a minute and try again.`, {
        status,
      });
    if (status >= 500)
      return new AppError('unavailable', `fal is having trouble (HTTP ${status}): try again shortly.`, { status });
    return new AppError('upstream', `fal refused the token request (HTTP ${status})${suffix}.`, { status });
  }
}

/** fal answers with a JSON string, or an object whose `detail` holds the token (plain text also seen). */
function parseToken(text: string): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  try {
    const j = JSON.parse(t) as unknown;
    if (typeof j === 'string') return j;
    if (j && typeof j === 'object' && typeof (j as { detail?: unknown }).detail === 'string')
      return (j as { detail: string }).detail;
    return undefined;
  } catch {
    return t;
  }
}
