import type { KeyName } from '@shared/contract/settings';
import { REDACTED, redact } from '../log';
import type { KeyBindings } from './key-bindings';

/** How each key is written in the Authorization header. */
const schemes: Record<KeyName, string> = { hfToken: 'Bearer', falKey: 'Key', ollamaApiKey: 'Bearer' };

const MAX_REDIRECTS = 10;

interface BoundFetchOptions {
  /** Every secret main holds (keys and MCP secrets): masked in what the server answers. */
  secrets: () => string[];
  base?: typeof fetch;
}

/** A Request's URL, method, headers and signal (its body is not carried: callers pass a URL and an init). */
function requestParts(input: Parameters<typeof fetch>[0], init: RequestInit = {}) {
  if (!(input instanceof Request)) return { url: String(input), init };
  const { method, headers, signal } = input;
  return { url: input.url, init: { method, headers, signal, ...init } as RequestInit };
}

/**
 * The one way a key goes onto the wire. Each request (and each redirect hop, followed here) gets the Authorization
 * header of `name` only when KeyBindings binds the key to that URL's origin; after a redirect to another origin no
 * key is sent again. A caller's own Authorization header is dropped, so nothing but the bindings decide. What the
 * server answers is read through `maskSecrets`: a server that echoes a key back cannot hand it to the page.
 */
export function boundFetch(name: KeyName, keys: Pick<KeyBindings, 'forUrl'>, opts: BoundFetchOptions): typeof fetch {
  return keyedFetch((origin) => keys.forUrl(name, origin), schemes[name], opts);
}

/**
 * The same, with the key chosen by `keyFor(origin)` (undefined: no key for that origin) and written as
 * `${scheme} ${key}`: for keys that are not SecretNames, such as each OpenAI-compatible endpoint's own.
 */
export function keyedFetch(
  keyFor: (origin: string) => string | undefined,
  scheme: string,
  opts: BoundFetchOptions,
): typeof fetch {
  return async (input, init) => {
    const first = requestParts(input, init);
    let url = new URL(first.url);
    let { method = 'GET', body } = first.init;
    const origin = url.origin;
    let left = false;
    for (let hop = 0; ; hop++) {
      const headers = new Headers(first.init.headers);
      headers.delete('authorization');
      if (body === undefined) headers.delete('content-type');
      // Once the chain has left the first origin, it stays keyless even if it comes back.
      left ||= url.origin !== origin;
      const key = left ? undefined : keyFor(url.origin);
      if (key) headers.set('authorization', `${scheme} ${key}`);
      const res = await (opts.base ?? fetch)(url, { ...first.init, method, body, headers, redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || !location) return maskSecrets(res, opts.secrets());
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      // As fetch does: 303 (and 301/302 after a POST) go on as a GET without a body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
      }
    }
  };
}

/** Bodies that are text (JSON, NDJSON, SSE, plain text and every error answer): a binary file passes as it is. */
function isText(res: Response): boolean {
  if (!res.ok) return true;
  return /json|text|event-stream|xml/i.test(res.headers.get('content-type') ?? '');
}

/** The response with every secret masked in its headers, status text and (when text) body. */
function maskSecrets(res: Response, secrets: string[]): Response {
  const live = secrets.filter((s) => s.length >= 4);
  if (!live.length) return res;
  const headers = new Headers();
  res.headers.forEach((value, name) => headers.append(name, maskText(value, live)));
  const text = !!res.body && isText(res);
  if (text) {
    // The body is decoded and may change length.
    headers.delete('content-length');
    headers.delete('content-encoding');
  }
  return new Response(text ? maskStream(res.body!, live) : res.body, {
    status: res.status,
    statusText: maskText(res.statusText, live),
    headers,
  });
}

/** A text body with every secret masked: a piece that could be the start of one is held until the next read. */
function maskStream(body: ReadableStream<Uint8Array>, secrets: string[]): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        // What could be the start of a secret is held before masking, so no part of one is let through.
        const text = pending + decoder.decode(chunk, { stream: true });
        const hold = heldTail(text, secrets);
        const ready = maskText(text.slice(0, text.length - hold), secrets);
        pending = text.slice(text.length - hold);
        if (ready) out.enqueue(encoder.encode(ready));
      },
      flush(out) {
        const rest = maskText(pending + decoder.decode(), secrets);
        if (rest) out.enqueue(encoder.encode(rest));
      },
    }),
  );
}

/** Servers quote the start of a wrong key back (LM Studio: its first 10 characters): a run this long is masked. */
const ECHO_MIN = 8;

/** `text` with every secret masked, and every run of a secret's first ECHO_MIN or more characters. */
function maskText(text: string, secrets: string[]): string {
  let out = redact(text, secrets);
  for (const s of secrets) {
    if (s.length <= ECHO_MIN) continue;
    const head = s.slice(0, ECHO_MIN);
    for (let i = out.indexOf(head); i >= 0; i = out.indexOf(head, i + REDACTED.length)) {
      let n = ECHO_MIN;
      while (n < s.length && out[i + n] === s[n]) n++;
      out = out.slice(0, i) + REDACTED + out.slice(i + n);
    }
  }
  return out;
}

/** The length of the longest end of `text` that is the start of a secret (so it may continue in the next read). */
function heldTail(text: string, secrets: string[]): number {
  let hold = 0;
  for (const s of secrets)
    for (let n = Math.min(s.length - 1, text.length); n > hold; n--)
      if (text.endsWith(s.slice(0, n))) {
        hold = n;
        break;
      }
  return hold;
}
