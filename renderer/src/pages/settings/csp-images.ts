/**
 * Whether the page's own CSP (its meta tag, which main writes from the Hub endpoint when it serves index.html) lets
 * images load from `endpoint`. A page keeps the policy it was loaded with, so a changed endpoint needs a reload.
 */
export function cspAllowsImagesFrom(csp: string | null | undefined, endpoint: string | undefined): boolean {
  if (!csp || !endpoint) return true; // no policy to check (npm run dev), or nothing set
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return true; // an invalid endpoint loads nothing anyway
  }
  const img = csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('img-src '));
  if (!img) return true;
  return img
    .split(/\s+/)
    .slice(1)
    .some((src) => {
      if (src === url.origin) return true;
      const wild = /^(https?):\/\/\*\.([^/:]+)$/.exec(src);
      return !!wild && url.protocol === `${wild[1]}:` && url.hostname.endsWith(`.${wild[2]}`) && !url.port;
    });
}

/** The page's meta CSP as loaded. */
export const pageCsp = () =>
  document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? undefined;
