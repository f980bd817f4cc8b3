import type { AppErrorShape } from './errors';

/** The wire names of both transports: the only place they are written. */
export const IPC = {
  call: 'hubdesk:call',
  streamStart: 'hubdesk:stream-start',
  streamCancel: 'hubdesk:stream-cancel',
  streamMessage: 'hubdesk:stream-message',
} as const;

export const WEB = {
  callPath: '/api/call/',
  streamPath: '/api/stream/',
  authHeader: 'authorization',
  tokenFragment: 'token',
  /** Where the page keeps the secret for its tab once taken from the address (shared/first-paint.ts). */
  secretStorageKey: 'hubdesk.webSecret',
} as const;

/** A call's reply on the wire: never a thrown exception. */
export type Reply = { ok: true; value: unknown } | { ok: false; error: AppErrorShape };

/** What main sends for a running stream: batches of events, then one end or one error. */
export type StreamPayload =
  { type: 'events'; events: unknown[] } | { type: 'end'; result: unknown } | { type: 'error'; error: AppErrorShape };
export type StreamMessage = StreamPayload & { id: string };

/** A transport carries untyped calls and streams; the client puts the contract's types on them. */
export interface Transport {
  call(name: string, input: unknown): Promise<unknown>;
  stream(name: string, input: unknown, onEvents: (events: unknown[]) => void): RawStreamHandle;
}

export interface RawStreamHandle {
  result: Promise<unknown>;
  cancel(): void;
}
