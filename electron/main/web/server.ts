import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { AppError, httpStatusFor, toAppError } from '@shared/errors';
import { WEB, type Reply } from '@shared/transport';
import type { Logger } from '../services/log';
import type { Router } from '../router';

export interface WebServerOptions {
  router: Router;
  log: Logger;
  /** The built renderer (out/renderer); omitted → API only. */
  staticDir?: string;
  port?: number;
  /** The per-launch secret; random unless given (tests). */
  secret?: string;
}

export interface WebServer {
  url: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;

/** The same policy the desktop window gets: nothing remote runs, workers (Monaco) allowed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://huggingface.co https://*.huggingface.co https://*.hf.co",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

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

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(data);
}

function sendError(res: ServerResponse, e: unknown): void {
  const err = toAppError(e);
  const reply: Reply = { ok: false, error: err.toJSON() };
  sendJson(res, httpStatusFor(err.code), reply);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new AppError('invalid_input', 'Request body too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_input', 'Request body is not valid JSON.');
  }
}

/**
 * Serves the renderer and the router on loopback only. Every API request must carry the
 * per-launch secret; a foreign Host or Origin (DNS rebinding, other sites) is refused.
 */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const secret = opts.secret ?? randomBytes(24).toString('base64url');
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const staticRoot = opts.staticDir ? resolve(opts.staticDir) : undefined;

  const server = createServer((req, res) => {
    void handle(req, res).catch((e) => {
      opts.log.error('web request failed', { url: req.url, message: String(e) });
      if (!res.headersSent) sendError(res, e);
      else res.destroy();
    });
  });

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
    const url = new URL(req.url ?? '/', `http://${host}`);
    if (url.pathname.startsWith('/api/')) return api(req, res, url);
    return serveStatic(req, res, url);
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const auth = req.headers[WEB.authHeader];
    const given = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!given || !sameSecret(given, secret)) {
      sendError(
        res,
        new AppError('unauthorized', 'Missing or wrong HubDesk web secret. Open the URL HubDesk printed.'),
      );
      return;
    }
    if (req.method !== 'POST') {
      sendError(res, new AppError('invalid_input', 'Use POST.'));
      return;
    }
    if (url.pathname.startsWith(WEB.callPath)) {
      const name = decodeURIComponent(url.pathname.slice(WEB.callPath.length));
      try {
        const value = await opts.router.call(name, await readJson(req));
        const reply: Reply = { ok: true, value };
        sendJson(res, 200, reply);
      } catch (e) {
        sendError(res, e);
      }
      return;
    }
    if (url.pathname.startsWith(WEB.streamPath)) {
      const name = decodeURIComponent(url.pathname.slice(WEB.streamPath.length));
      const input = await readJson(req);
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      res.flushHeaders();
      const running = opts.router.stream(name, input, (msg) => {
        if (!res.writableEnded) res.write(`data: ${JSON.stringify(msg)}\n\n`);
        if (msg.type !== 'events') res.end();
      });
      // The browser closing the request (cancel, reload, tab closed) stops the work in main.
      res.on('close', () => {
        if (!res.writableFinished) running.cancel();
      });
      await running.done;
      return;
    }
    sendError(res, new AppError('not_found', `No such endpoint: ${url.pathname}`));
  }

  function serveStatic(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (!staticRoot) {
      res.writeHead(404).end();
      return;
    }
    let rel = decodeURIComponent(url.pathname);
    if (rel === '/' || !extname(rel)) rel = '/index.html';
    const file = normalize(join(staticRoot, rel));
    if (!file.startsWith(staticRoot + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const headers: Record<string, string | number> = {
      'content-type': mime[extname(file)] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'cache-control': rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
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
