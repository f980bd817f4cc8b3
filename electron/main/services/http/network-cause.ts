/**
 * Why a request failed below HTTP, read once from the codes node and undici put on a failed fetch's cause chain
 * (`TypeError: fetch failed` → `Error { code: 'ECONNREFUSED' }`). Each caller words the kind for its own reader.
 */
export type NetworkCause =
  | {
      kind:
        | 'timeout'
        | 'refused'
        | 'unknown-host'
        | 'unreachable'
        | 'not-https'
        | 'tls'
        | 'reset'
        | 'proxy-auth'
        | 'proxy-refused'
        | 'proxy-down';
      code: string;
    }
  | { kind: 'other'; code?: string };

type Known = Exclude<NetworkCause['kind'], 'other'>;

// Order matters: a wrong TLS version (a plain-http server asked for https) is also an ERR_SSL code.
const KINDS: [RegExp, Known][] = [
  // Put on by net/proxy-failure.ts, outermost, so they win over the socket's own code beneath.
  [/^PROXY_AUTH$/, 'proxy-auth'],
  [/^PROXY_REFUSED$/, 'proxy-refused'],
  [/^PROXY_DOWN$/, 'proxy-down'],
  [/^ETIMEDOUT$/, 'timeout'],
  [/^ECONNREFUSED$/, 'refused'],
  [/^(ENOTFOUND$|EAI_)/, 'unknown-host'],
  [/^(EHOSTUNREACH|ENETUNREACH)$/, 'unreachable'],
  [/^(ERR_SSL_WRONG_VERSION_NUMBER|EPROTO)$/, 'not-https'],
  [/^(CERT_|ERR_TLS|ERR_SSL|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/, 'tls'],
  [/^ECONNRESET$/, 'reset'],
];

/** A plain system error code (ECONNREFUSED, EPIPE…): worth showing even when no kind above names it. */
const SYSTEM = /^E[A-Z]+$/;

/** The string codes on an error and its causes, outermost first (a few levels: wrappers add one or two). */
function chainCodes(e: unknown): string[] {
  const codes: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    cur = (cur as { cause?: unknown }).cause;
  }
  return codes;
}

/** The first code in the chain that names a known cause; undici's own codes (UND_ERR_…) are passed over. */
export function networkCause(e: unknown): NetworkCause {
  const codes = chainCodes(e);
  for (const code of codes) {
    const known = KINDS.find(([re]) => re.test(code));
    if (known) return { kind: known[1], code };
  }
  return { kind: 'other', code: codes.find((c) => SYSTEM.test(c)) };
}

/** The system-level reason a request could not connect (ECONNREFUSED, ENOTFOUND…), if any. */
export function networkErrorCode(e: unknown): string | undefined {
  return chainCodes(e).find((c) => SYSTEM.test(c));
}
