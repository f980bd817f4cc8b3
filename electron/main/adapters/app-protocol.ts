import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { markFirstScreen } from '../services/first-screen';
import { APP_SCHEME, CONTENT_SECURITY_POLICY, lookupAppUrl, mimeFor } from '../services/static-files';

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
 * `landingFirst`: whether index.html's prerendered catalogue landing is the first screen (services/first-screen.ts).
 */
export function handleAppProtocol(rendererDir: string, landingFirst: () => boolean): void {
  protocol.handle(APP_SCHEME, async (req) => {
    const found = lookupAppUrl(rendererDir, req.method, req.url);
    if (found.status !== 200) return new Response(null, { status: found.status });
    const body =
      found.rel === '/index.html'
        ? markFirstScreen(await readFile(found.file, 'utf8'), landingFirst())
        : await readFile(found.file);
    return new Response(body, {
      headers: {
        'content-type': mimeFor(found.file),
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
