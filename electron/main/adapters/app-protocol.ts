import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { markFirstScreen } from '../services/first-screen';
import {
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
  lookupAppUrl,
  mimeFor,
  withImageSources,
} from '../services/static-files';

/**
 * Must run before `app` is ready: `app://` behaves like https (secure context, fetch, its own origin). `corsEnabled`
 * is left out on purpose: it would let other origins read app:// responses without any CORS check.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/**
 * Serves the built renderer on `app://hubdesk/`, with the app's CSP; nothing else is reachable through it.
 * `landingFirst`: whether index.html's prerendered catalogue landing is the first screen (services/first-screen.ts);
 * `hubEndpoint`: the Hub endpoint in use, whose images the page's CSP allows (a mirror's included).
 */
export function handleAppProtocol(rendererDir: string, landingFirst: () => boolean, hubEndpoint: () => string): void {
  protocol.handle(APP_SCHEME, async (req) => {
    const found = lookupAppUrl(rendererDir, req.method, req.url);
    if (found.status !== 200) return new Response(null, { status: found.status });
    const page = found.rel === '/index.html';
    const hub = page ? hubEndpoint() : undefined;
    const body = page
      ? withImageSources(markFirstScreen(await readFile(found.file, 'utf8'), landingFirst()), hub)
      : await readFile(found.file);
    return new Response(body, {
      headers: {
        'content-type': mimeFor(found.file),
        'content-security-policy': page ? contentSecurityPolicy(hub) : CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
