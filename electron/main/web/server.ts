import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { AppError, httpStatusFor, toAppError } from '@shared/errors';
import { MAX_BODY_BYTES, MAX_INPUT_DEPTH, nestsDeeperThan } from '@shared/limits';
import { WEB, type Reply } from '@shared/transport';
import { markFirstScreen } from '../services/first-screen';
import { CONNECTION_LIMITS, ConnectionGuard, type ConnectionLimits } from '../services/http/connection-guard';
import type { Logger } from '../services/log';
import {
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
  lookupStatic,
  mimeFor,
  withImageSources,
} from '../services/static-files';
import type { Router } from '../router';

/** How long nothing is sent before the page's first burst of file requests counts as over. */
const PAGE_BURST_QUIET_MS = 25;

interface WebServerOptions {
  /** The router, or a stand-in that waits for it (web.ts listens before the services are loaded). */
  router: Pick<Router, 'call' | 'stream'>;
  log: Logger;
  /** The built renderer (out/renderer); omitted → API only. */
  staticDir?: string;
  port?: number;
  /** Called once, when the page's scripts have been sent and its requests have paused (web.ts loads the rest then). */
  onPageServed?: () => void;
  /** The per-launch secret; random unless given (tests). */
  secret?: string;
  /** Whether index.html's prerendered catalogue landing is the first screen (services/first-screen.ts). */
  landingFirst?: () => boolean;
  /** The Hub endpoint in use, read each time index.html is served: its images are allowed by the page's CSP. */
  hubEndpoint?: () => string;
  /** Its cap on open connections and its header timeout (tests set small ones). */
  connections?: Partial<ConnectionLimits>;
}

export interface WebServer {
  url: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

/** A percent-decoded path, or undefined for a malformed escape (answered 400, never logged). */
function decodePath(p: string): string | undefined {
  try {
    return decodeURIComponent(p);
  } catch {
    return undefined;
  }
}

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
  sendJson(res, err.status === 413 ? 413 : httpStatusFor(err.code), reply);
}

const tooLarge = () =>
  new AppError('invalid_input', `Request too large: the limit is ${MAX_BODY_BYTES / 1024 / 1024} MB.`, {
    status: 413,
  });

/**
 * The JSON body, within MAX_BODY_BYTES and MAX_INPUT_DEPTH. An oversized body is drained, not buffered, so the
 * 413 reaches the client and the keep-alive connection stays usable.
 */
async function readJson(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) over = true;
    if (!over) chunks.push(chunk as Buffer);
  }
  if (over) throw tooLarge();
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_input', 'Request body is not valid JSON.');
  }
  if (nestsDeeperThan(value, MAX_INPUT_DEPTH))
    throw new AppError('invalid_input', `Request nests deeper than ${MAX_INPUT_DEPTH} levels.`);
  return value;
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

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const auth = req.headers[WEB.authHeader];
    const given = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!given) {
      sendError(res, new AppError('unauthorized', 'Missing HubDesk web secret. Open the address HubDesk printed.'));
      return;
    }
    // A page holding another secret took it from an earlier launch (a restart on the same --port).
    if (!sameSecret(given, secret)) {
      sendError(
        res,
        new AppError(
          'stale_secret',
          "This page's secret is stale — HubDesk was restarted. Open the address it printed in this tab.",
        ),
      );
      return;
    }
    guard.admit(req.socket);
    if (req.method !== 'POST') {
      sendError(res, new AppError('invalid_input', 'Use POST.'));
      return;
    }
    if (url.pathname.startsWith(WEB.callPath)) {
      let input: unknown;
      const name = decodePath(url.pathname.slice(WEB.callPath.length));
      try {
        if (name === undefined) throw new AppError('invalid_input', 'Malformed call name.');
        input = await readJson(req);
      } catch (e) {
        sendError(res, e);
        return;
      }
      // The call was carried: its answer, value or error, is a 200 (as a stream's error event is). HTTP error
      // statuses stay for requests the transport itself refuses, so a browser logs no expected refusal as a failure.
      let reply: Reply;
      try {
        reply = { ok: true, value: await opts.router.call(name, input) };
      } catch (e) {
        reply = { ok: false, error: toAppError(e).toJSON() };
      }
      sendJson(res, 200, reply);
      return;
    }
    if (url.pathname.startsWith(WEB.streamPath)) {
      const name = decodePath(url.pathname.slice(WEB.streamPath.length));
      let input: unknown;
      try {
        if (name === undefined) throw new AppError('invalid_input', 'Malformed stream name.');
        input = await readJson(req);
      } catch (e) {
        sendError(res, e);
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      res.flushHeaders();
      const running = opts.router.stream(name!, input, (msg) => {
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
