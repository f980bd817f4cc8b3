import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { FIRST_PAINT_SCRIPT } from '../../../shared/first-paint';

/** The scheme and origin the desktop window loads the renderer from (registered as privileged, like https). */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://hubdesk`;

/** The CSP source that allows index.html's one inline script (shared/first-paint.ts) and nothing else inline. */
export const FIRST_PAINT_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(FIRST_PAINT_SCRIPT).digest('base64')}'`;

/** The Hub's own image hosts: model cards show images from there. */
const HUB_IMAGE_SOURCES = ['https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co'];

/** The origin of a Hub endpoint (a mirror set by HF_ENDPOINT or in Settings), only if it is a plain http(s) origin. */
function endpointOrigin(endpoint: string | undefined): string | undefined {
  if (!endpoint) return undefined;
  try {
    const { origin } = new URL(endpoint);
    // Only what a CSP source may hold: nothing that could end the directive or start another.
    return /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/i.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** The `img-src` directive: the Hub's hosts, and the configured Hub endpoint's origin, so a mirror's images load. */
export function imageSources(hubEndpoint?: string): string {
  const sources = ["'self'", 'data:', 'blob:', ...HUB_IMAGE_SOURCES];
  const origin = endpointOrigin(hubEndpoint);
  if (origin && !sources.includes(origin)) sources.push(origin);
  return `img-src ${sources.join(' ')}`;
}

/**
 * The same policy for the desktop window and the web mode: nothing remote runs, workers (Monaco) allowed, images
 * from the Hub (and its configured endpoint).
 */
export function contentSecurityPolicy(hubEndpoint?: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${FIRST_PAINT_SCRIPT_SOURCE}`,
    "style-src 'self' 'unsafe-inline'",
    imageSources(hubEndpoint),
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy for files other than index.html (scripts, workers, styles), where `img-src` plays no part. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * index.html as served: its meta CSP (kept for `npm run dev`, where no header is sent) gets the same `img-src` as
 * the header, since a page enforces both and an image must pass each.
 */
export function withImageSources(html: string, hubEndpoint: string | undefined): string {
  return html.replace(/img-src [^;"]*/, imageSources(hubEndpoint));
}

const mime: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export function mimeFor(file: string): string {
  return mime[extname(file)] ?? 'application/octet-stream';
}

type StaticLookup = { status: 200; file: string; rel: string } | { status: 400 } | { status: 404 };

/**
 * The file under `root` a URL path names: a path without an extension is the single-page app's index.html;
 * malformed escapes, NUL bytes and anything resolving outside `root` are refused.
 */
export function lookupStatic(root: string, pathname: string): StaticLookup {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return { status: 400 };
  }
  if (rel.includes('\0')) return { status: 400 };
  if (rel === '/' || !extname(rel)) rel = '/index.html';
  const file = normalize(join(root, rel));
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) return { status: 404 };
  return { status: 200, file, rel };
}

/** What an `app://` request may load: only the app's own origin, GET, and files of the built renderer. */
export function lookupAppUrl(root: string, method: string, url: string): StaticLookup {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { status: 400 };
  }
  // scheme://host rather than `origin`: Node's URL gives a custom scheme the origin "null".
  if (`${u.protocol}//${u.host}` !== APP_ORIGIN || (method !== 'GET' && method !== 'HEAD')) return { status: 404 };
  return lookupStatic(root, u.pathname);
}
