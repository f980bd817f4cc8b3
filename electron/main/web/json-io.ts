import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, httpStatusFor, toAppError } from '@shared/errors';
import { MAX_BODY_BYTES, MAX_INPUT_DEPTH, nestsDeeperThan } from '@shared/limits';
import type { Reply } from '@shared/transport';

/** A percent-decoded path, or undefined for a malformed escape (answered 400, never logged). */
export function decodePath(p: string): string | undefined {
  try {
    return decodeURIComponent(p);
  } catch {
    return undefined;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(data);
}

export function sendError(res: ServerResponse, e: unknown): void {
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
export async function readJson(req: IncomingMessage): Promise<unknown> {
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
