import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
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

/** Serves the built renderer on `app://hubdesk/`, with the app's CSP; nothing else is reachable through it. */
export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (req) => {
    const found = lookupAppUrl(rendererDir, req.method, req.url);
    if (found.status !== 200) return new Response(null, { status: found.status });
    return new Response(await readFile(found.file), {
      headers: {
        'content-type': mimeFor(found.file),
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
