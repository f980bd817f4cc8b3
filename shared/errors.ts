/** The fixed set of error codes that can cross the renderer/main boundary. */
export const errorCodes = [
  'invalid_input',
  'not_found',
  'unauthorized',
  'forbidden',
  'conflict',
  'rate_limited',
  'unavailable',
  'timeout',
  'aborted',
  'upstream',
  /** A data file (the chat database) is damaged: reported and left untouched, never repaired or replaced. */
  'storage_damaged',
  'internal',
  /** The web mode's secret a page sent is not this launch's: HubDesk was restarted since the page took it. */
  'stale_secret',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The one error shape on the wire. Kept free of zod so the preload and the renderer's core stay small. */
export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  status?: number;
  details?: unknown;
}

export function isAppErrorShape(v: unknown): v is AppErrorShape {
  const o = v as AppErrorShape | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    (errorCodes as readonly string[]).includes(o.code) &&
    typeof o.message === 'string' &&
    (o.status === undefined || typeof o.status === 'number')
  );
}

/** The one error type every call and stream rejects with, on both sides of the boundary. */
export class AppError extends Error implements AppErrorShape {
  readonly code: ErrorCode;
  readonly status?: number;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, opts: { status?: number; details?: unknown } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    if (opts.status !== undefined) this.status = opts.status;
    if (opts.details !== undefined) this.details = opts.details;
  }

  toJSON(): AppErrorShape {
    const out: AppErrorShape = { code: this.code, message: this.message };
    if (this.status !== undefined) out.status = this.status;
    if (this.details !== undefined) out.details = this.details;
    return out;
  }

  static from(shape: AppErrorShape): AppError {
    return new AppError(shape.code, shape.message, { status: shape.status, details: shape.details });
  }
}

/** Turns anything thrown into an AppError; unknown throws become `internal` with their message. */
export function toAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (isAppErrorShape(e)) return AppError.from(e);
  if (e instanceof Error) {
    if (e.name === 'AbortError') return new AppError('aborted', 'The operation was cancelled.');
    return new AppError('internal', e.message || e.name);
  }
  return new AppError('internal', String(e));
}

/** The HTTP status a web-mode response uses for an error code. */
export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'invalid_input':
      return 400;
    case 'unauthorized':
    case 'stale_secret':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'rate_limited':
      return 429;
    case 'aborted':
      return 499;
    case 'upstream':
      return 502;
    case 'unavailable':
      return 503;
    case 'timeout':
      return 504;
    case 'storage_damaged':
    case 'internal':
      return 500;
  }
}
