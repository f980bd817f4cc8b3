import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestBodies, RequestLogEntry } from '@shared/contract/local-server';
import { clientName } from './client-name';

/** Entries kept in memory, newest first; older ones drop off. */
const MAX_ENTRIES = 200;
/** Of a request body or a reply, what is kept (characters) when the person keeps bodies. */
const MAX_KEPT = 64 * 1024;

/**
 * What a route measured about its request, for the log: the route fills it (the server never parses its own
 * answers). Every field stays empty for a route that does not say.
 */
export interface RequestRecord {
  model?: string;
  /** The message the client got when it was refused or the answer failed (also mid-stream). */
  error?: string;
  /** A generation's token counts and, when the engine timed it, its speed. */
  measured(usage: { prompt_tokens: number; completion_tokens: number }, figures?: { tokensPerSecond?: number }): void;
  /** A piece of the reply's text as it is produced: kept only with "keep request bodies" on. */
  reply(text: string): void;
}

interface Item {
  entry: RequestLogEntry;
  request?: string;
  requestTruncated?: boolean;
  reply?: string;
  replyTruncated?: boolean;
}

/**
 * The key, and any field that names a credential, out of a kept body: a client may put its key in the body
 * (`api_key`), and the log is shown on screen. Works on a truncated body too (text, not JSON).
 */
function redact(text: string, key: string): string {
  const out = key ? text.split(key).join('[key removed]') : text;
  return out.replace(
    /("(?:authorization|api[_-]?key|x-api-key|apiKey|token)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
    '$1"[removed]"',
  );
}

/**
 * The local server's recent requests, in memory only (gone when the app quits, emptied by Clear): method, route,
 * client, model, tokens, status and error, and, only when the person turned "keep request bodies" on, the body
 * (capped, without the key) and the reply's text.
 */
export class RequestLog {
  private items: Item[] = [];
  private readonly listeners = new Set<() => void>();
  private seq = 0;

  /**
   * Opens an entry for a request as it arrives (shown as in progress) and closes it when its response ends, with
   * the status the client got. `res` must not have been answered yet.
   */
  begin(req: IncomingMessage, res: ServerResponse, opts: { keepBodies: boolean; key: string }): RequestRecord {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ua = req.headers['user-agent'];
    const origin = req.headers.origin;
    const entry: RequestLogEntry = {
      id: `${Date.now().toString(36)}-${++this.seq}`,
      at: new Date().toISOString(),
      client: clientName(ua),
      ...(ua ? { userAgent: ua.slice(0, 300) } : {}),
      ...(origin ? { origin: origin.slice(0, 300) } : {}),
      method: (req.method ?? 'GET').slice(0, 16),
      // The path only: a query string is the client's and may carry anything.
      path: url.pathname.slice(0, 200),
      kept: opts.keepBodies,
    };
    const item: Item = { entry };
    let done = false;
    let firstPiece: number | undefined;
    let lastPiece: number | undefined;
    let speed: number | undefined;
    const body: Buffer[] = [];
    let bodyBytes = 0;
    if (opts.keepBodies) {
      // The body as the parser hands it to the request stream (`push`), so the route reads it exactly as without the
      // log: listening for 'data' would change how the stream flows. Only what fits the cap (and a key's length past
      // it, so a key cut at the edge is still found) is held.
      const push = req.push.bind(req);
      req.push = (chunk: unknown, encoding?: BufferEncoding) => {
        if (!done && Buffer.isBuffer(chunk)) {
          if (bodyBytes < MAX_KEPT + opts.key.length) body.push(chunk);
          bodyBytes += chunk.length;
        }
        return push(chunk, encoding);
      };
    }
    const record: RequestRecord = {
      measured: (usage, figures) => {
        entry.promptTokens = usage.prompt_tokens;
        entry.completionTokens = usage.completion_tokens;
        speed = figures?.tokensPerSecond;
      },
      reply: (text) => {
        const now = performance.now();
        firstPiece ??= now;
        lastPiece = now;
        if (!opts.keepBodies || !text) return;
        const kept = item.reply ?? '';
        if (kept.length >= MAX_KEPT) return void (item.replyTruncated = true);
        item.reply = kept + text.slice(0, MAX_KEPT - kept.length);
        if (kept.length + text.length > MAX_KEPT) item.replyTruncated = true;
      },
    };
    res.once('close', () => {
      done = true;
      entry.durationMs = Math.round(performance.now() - started);
      // A client gone before the headers never got a status: 499, as nginx logs it.
      entry.status = res.headersSent ? res.statusCode : 499;
      if (record.model) entry.model = record.model.slice(0, 300);
      const error =
        record.error ??
        (entry.status === 401 ? 'Missing or wrong API key.' : undefined) ??
        (!res.writableFinished
          ? res.headersSent
            ? 'The client went away before the answer was complete.'
            : 'The client went away before the answer.'
          : undefined);
      if (error) entry.error = error.slice(0, 2000);
      const tokens = entry.completionTokens ?? 0;
      // The engine's own speed, else the pieces' pace (the first token's wait is not generation).
      const measured =
        speed ??
        (tokens > 1 && firstPiece !== undefined && lastPiece! > firstPiece
          ? ((tokens - 1) * 1000) / (lastPiece! - firstPiece)
          : undefined);
      if (measured !== undefined && Number.isFinite(measured) && measured > 0)
        entry.tokensPerSecond = Math.round(measured * 10) / 10;
      if (opts.keepBodies && bodyBytes > 0) {
        const text = redact(Buffer.concat(body).toString('utf8'), opts.key);
        item.request = text.slice(0, MAX_KEPT);
        if (bodyBytes > MAX_KEPT || text.length > MAX_KEPT) item.requestTruncated = true;
      }
      this.changed();
    });
    this.items.unshift(item);
    if (this.items.length > MAX_ENTRIES) this.items.length = MAX_ENTRIES;
    this.changed();
    return record;
  }

  /** Newest first, without bodies (those come one entry at a time, from `bodies`). */
  list(): RequestLogEntry[] {
    return this.items.map((i) => ({ ...i.entry }));
  }

  bodies(id: string): RequestBodies {
    const item = this.items.find((i) => i.entry.id === id);
    if (!item) return {};
    const { request, requestTruncated, reply, replyTruncated } = item;
    return {
      ...(request !== undefined ? { request } : {}),
      ...(requestTruncated ? { requestTruncated } : {}),
      ...(reply !== undefined ? { reply } : {}),
      ...(replyTruncated ? { replyTruncated } : {}),
    };
  }

  clear(): void {
    this.items = [];
    this.changed();
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
