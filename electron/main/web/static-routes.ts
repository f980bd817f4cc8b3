import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { markFirstScreen } from '../services/first-screen';
import {
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
  lookupStatic,
  mimeFor,
  withImageSources,
} from '../services/static-files';
import { decodePath } from './json-io';

/** How long nothing is sent before the page's first burst of file requests counts as over. */
const PAGE_BURST_QUIET_MS = 25;

export interface StaticOptions {
  /** The built renderer (out/renderer); omitted → API only. */
  staticDir?: string;
  /** Called once, when the page's scripts have been sent and its requests have paused (web.ts loads the rest then). */
  onPageServed?: () => void;
  /** Whether index.html's prerendered catalogue landing is the first screen (services/first-screen.ts). */
  landingFirst?: () => boolean;
  /** The Hub endpoint in use, read each time index.html is served: its images are allowed by the page's CSP. */
  hubEndpoint?: () => string;
}

/** The page's own files, with their security policy and caching, and the moment its first burst of requests ends. */
export function staticRoutes(opts: StaticOptions): (req: IncomingMessage, res: ServerResponse, url: URL) => void {
  const staticRoot = opts.staticDir ? resolve(opts.staticDir) : undefined;
  let sending = 0;
  let pageServed = !opts.onPageServed;
  let scriptServed = false;
  let quiet: NodeJS.Timeout | undefined;
  // The built renderer does not change while the app runs: each file is read once, then sent from memory (a burst
  // of a page's requests no longer queues on file streams; the whole renderer is a few MB).
  const files = new Map<string, Buffer>();
  const fileBytes = (file: string): Buffer => {
    let bytes = files.get(file);
    if (!bytes) files.set(file, (bytes = readFileSync(file)));
    return bytes;
  };

  return function serveStatic(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (decodePath(url.pathname) === undefined) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
      return;
    }
    if (!staticRoot) {
      res.writeHead(404).end();
      return;
    }
    const found = lookupStatic(staticRoot, url.pathname);
    if (found.status !== 200) {
      res
        .writeHead(found.status, { 'content-type': 'text/plain' })
        .end(found.status === 400 ? 'Bad request' : 'Not found');
      return;
    }
    const { file, rel } = found;
    const page = rel === '/index.html';
    const hub = page ? opts.hubEndpoint?.() : undefined;
    const body =
      page && (opts.landingFirst || hub)
        ? Buffer.from(
            withImageSources(markFirstScreen(fileBytes(file).toString('utf8'), opts.landingFirst?.() ?? false), hub),
          )
        : fileBytes(file);
    const headers: Record<string, string | number> = {
      'content-type': mimeFor(file),
      'content-length': body.length,
      'content-security-policy': page ? contentSecurityPolicy(hub) : CONTENT_SECURITY_POLICY,
      'cache-control': rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    res.writeHead(200, headers);
    sending++;
    clearTimeout(quiet);
    res.on('close', () => {
      sending--;
      // Once one of the app's scripts (assets/) has gone and the page's burst of requests is over: its requests
      // reach the server one by one, so a pause with nothing being sent, not the first idle moment, ends it.
      if (rel.startsWith('/assets/') && file.endsWith('.js')) scriptServed = true;
      if (pageServed || sending > 0 || !scriptServed) return;
      quiet = setTimeout(() => {
        if (pageServed || sending > 0) return;
        pageServed = true;
        opts.onPageServed?.();
      }, PAGE_BURST_QUIET_MS);
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
