import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { AppError, toAppError } from '@shared/errors';
import { WEB, type Reply } from '@shared/transport';
import type { Router } from '../router';
import { decodePath, readJson, sendError, sendJson } from './json-io';

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A call's or stream's name and input; undefined once a malformed name or body has been answered. */
async function readAsked(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  kind: 'call' | 'stream',
): Promise<{ name: string; input: unknown } | undefined> {
  const name = decodePath(path);
  try {
    if (name === undefined) throw new AppError('invalid_input', `Malformed ${kind} name.`);
    return { name, input: await readJson(req) };
  } catch (e) {
    sendError(res, e);
    return undefined;
  }
}

/**
 * The API under /api/: every request carries the per-launch secret; a call is answered as JSON, a stream as
 * server-sent events. `admit` keeps a request's connection when half-open ones fill the cap.
 */
export function apiRoutes(
  router: Pick<Router, 'call' | 'stream'>,
  secret: string,
  admit: (socket: Socket) => void,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
  return async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
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
    admit(req.socket);
    if (req.method !== 'POST') {
      sendError(res, new AppError('invalid_input', 'Use POST.'));
      return;
    }
    if (url.pathname.startsWith(WEB.callPath)) {
      const asked = await readAsked(req, res, url.pathname.slice(WEB.callPath.length), 'call');
      if (!asked) return;
      const { name, input } = asked;
      // The call was carried: its answer, value or error, is a 200 (as a stream's error event is). HTTP error
      // statuses stay for requests the transport itself refuses, so a browser logs no expected refusal as a failure.
      let reply: Reply;
      try {
        reply = { ok: true, value: await router.call(name, input) };
      } catch (e) {
        reply = { ok: false, error: toAppError(e).toJSON() };
      }
      sendJson(res, 200, reply);
      return;
    }
    if (url.pathname.startsWith(WEB.streamPath)) {
      const asked = await readAsked(req, res, url.pathname.slice(WEB.streamPath.length), 'stream');
      if (!asked) return;
      const { name, input } = asked;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      res.flushHeaders();
      const running = router.stream(name, input, (msg) => {
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
  };
}
