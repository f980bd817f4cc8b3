/** Browser extensions' origins (`chrome-extension://<id>`): the clients ollama#2425 saw refused. */
const EXTENSION = /^(chrome-extension|moz-extension|safari-web-extension):\/\/([a-z0-9-]{1,128})\/?$/i;

/**
 * A browser origin the local server may grant CORS to, as the page and main both write it: `scheme://host[:port]`,
 * lower-case, without a default port, a path or a trailing slash (the form a browser sends in `Origin`, so the
 * allowlist is compared by equality). `*` and `null` (file: pages, sandboxed frames) are never origins here:
 * granting them would open the server to every page.
 */
export function normalizeOrigin(text: string): string | undefined {
  const t = text.trim();
  const ext = EXTENSION.exec(t);
  if (ext) return `${ext[1]!.toLowerCase()}://${ext[2]!.toLowerCase()}`;
  if (!/^https?:\/\/[^/?#\s*@]+\/?$/i.test(t)) return undefined;
  try {
    const origin = new URL(t).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** What the page and main say when a typed origin is not one. */
export const ORIGIN_HINT = 'use an origin like http://localhost:5173 (scheme://host[:port], no path; * is not allowed)';
