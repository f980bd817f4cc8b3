import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEB } from '@shared/transport';
import { CONNECTION_LIMITS, ConnectionGuard, type ConnectionLimits } from '../services/http/connection-guard';
import type { Logger } from '../services/log';
import type { Router } from '../router';
import { apiRoutes } from './api-routes';
import { sendError } from './json-io';
import { staticRoutes, type StaticOptions } from './static-routes';

interface WebServerOptions extends StaticOptions {
  /** The router, or a stand-in that waits for it (web.ts listens before the services are loaded). */
  router: Pick<Router, 'call' | 'stream'>;
  log: Logger;
  port?: number;
  /** The per-launch secret; random unless given (tests). */
  secret?: string;
  /** Its cap on open connections and its header timeout (tests set small ones). */
  connections?: Partial<ConnectionLimits>;
}

export interface WebServer {
  url: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

/**
 * Serves the renderer and the router on loopback only. Every API request must carry the
 * per-launch secret; a foreign Host or Origin (DNS rebinding, other sites) is refused.
 */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const secret = opts.secret ?? randomBytes(24).toString('base64url');
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];

  const limits = { ...CONNECTION_LIMITS, ...opts.connections };
  const server = createServer((req, res) => {
    void handle(req, res).catch((e) => {
      // The URL is not logged: it can carry anything a page chose to put in it.
      opts.log.error('web request failed', { method: req.method, message: String(e) });
      if (!res.headersSent) sendError(res, e);
      else res.destroy();
    });
  });

  const guard = new ConnectionGuard(server, limits);
  const api = apiRoutes(opts.router, secret, (socket) => guard.admit(socket));
  const serveStatic = staticRoutes(opts);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    const host = req.headers.host ?? '';
    if (!allowedHosts().includes(host)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden host');
      return;
    }
    const origin = req.headers.origin;
    if (origin && !allowedHosts().some((h) => origin === `http://${h}`)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden origin');
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${host}`);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
      return;
    }
    if (url.pathname.startsWith('/api/')) return api(req, res, url);
    // The page's own files: its connections stay when half-open ones fill the cap.
    guard.admit(req.socket);
    return serveStatic(req, res, url);
  }

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/#${WEB.tokenFragment}=${secret}`,
    port,
    secret,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
