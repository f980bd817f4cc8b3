import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toAppError, type ErrorCode } from '@shared/errors';

/** The largest request body taken (a long conversation with a few images fits). */
const MAX_BODY = 10 * 1024 * 1024;

/** An answer other than 200, in OpenAI's error shape. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly code: string | null = null,
    /** Seconds a client should wait before trying again (a 503 while the model's queue is full). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  body(): unknown {
    return { error: { message: this.message, type: this.type, param: null, code: this.code } };
  }
}

const STATUS_OF: Partial<Record<ErrorCode, [number, string]>> = {
  invalid_input: [400, 'invalid_request_error'],
  not_found: [404, 'not_found_error'],
  conflict: [409, 'conflict_error'],
  rate_limited: [429, 'rate_limit_error'],
  aborted: [499, 'aborted'],
  timeout: [504, 'timeout_error'],
  unavailable: [503, 'unavailable_error'],
};

/** Anything thrown while serving, as the error a client gets (an AppError keeps its message). */
export function toHttpError(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  const err = toAppError(e);
  const [status, type] = STATUS_OF[err.code] ?? [500, 'server_error'];
  const details = err.details as { retryAfter?: unknown; wireCode?: unknown } | undefined;
  const retry = details?.retryAfter;
  // OpenAI's own code when the service named one (context_length_exceeded, invalid_schema…), else the app's.
  const code = typeof details?.wireCode === 'string' ? details.wireCode : err.code;
  return new HttpError(status, err.message, type, code, typeof retry === 'number' ? retry : undefined);
}

/** An error answer in OpenAI's shape, with `Retry-After` when the client should come back later. */
export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, err.body(), err.retryAfter ? { 'retry-after': String(err.retryAfter) } : {});
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** llama-server's answer to a missing or wrong key, word for word, so its clients recognise it. */
export function sendUnauthorized(res: ServerResponse): void {
  sendJson(res, 401, { error: { code: 401, message: 'Invalid API Key', type: 'authentication_error' } });
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The key as `Authorization: Bearer <key>` (OpenAI's clients, Anthropic's with an auth token) or `x-api-key: <key>`
 * (Anthropic's clients with an API key), on every route: the same secret either way. Each is compared in constant
 * time (hashes first, so lengths do not leak either), both always, so which header held it does not leak.
 */
export function authorized(req: IncomingMessage, key: string): boolean {
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
  const header = req.headers['x-api-key'];
  const apiKey = (typeof header === 'string' ? header : '').trim();
  const want = digest(key);
  const byBearer = timingSafeEqual(digest(bearer), want) && bearer.length > 0;
  const byApiKey = timingSafeEqual(digest(apiKey), want) && apiKey.length > 0;
  return byBearer || byApiKey;
}

/** Only the names a local client uses: a page on another host rebinding its DNS to 127.0.0.1 gets a 403. */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** The JSON body, at most MAX_BODY bytes (413 beyond), or a 400 when it is not JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(
      400,
      `The request body is not valid JSON: ${(e as Error).message}`,
      'invalid_request_error',
      'invalid_json',
    );
  }
}

const tooLarge = () =>
  new HttpError(
    413,
    `The request body is larger than ${MAX_BODY / 1024 / 1024} MB.`,
    'invalid_request_error',
    'too_large',
  );

/** Server-sent events as OpenAI frames a stream: `data: {json}` and a blank line. */
export function sendEvent(res: ServerResponse, obj: unknown): void {
  res.write(`data: ${JSON.stringify(obj)}\n\n`);
}

/** The 404 for a model id the library does not have. */
export const modelNotFound = (id: string) =>
  new HttpError(
    404,
    `The model "${id}" does not exist: GET /v1/models lists the local models.`,
    'invalid_request_error',
    'model_not_found',
  );

/** A server-sent event stream's headers (written when its first event is ready). */
export function openEventStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

/**
 * An OpenAI route's failure: before the stream's headers, a plain HTTP error; after them, llama-server's way, an error
 * event, then the stream closes without [DONE].
 */
export function failOpenAI(res: ServerResponse, err: HttpError, streaming: boolean): void {
  if (!streaming) return sendError(res, err);
  sendEvent(res, err.body());
  res.end();
}
