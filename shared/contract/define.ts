import type { z } from 'zod';

/** A request/response call: one input, one output. */
export interface CallDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly kind: 'call';
  readonly input: I;
  readonly output: O;
}

/** A streaming call: start with an input, receive events, end with a result (or an error). */
export interface StreamDef<
  I extends z.ZodType = z.ZodType,
  E extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly kind: 'stream';
  readonly input: I;
  readonly event: E;
  readonly result: R;
  /** A subscription: it sends events until the caller cancels it (its result is then never sent). */
  readonly endless?: boolean;
}

export function call<I extends z.ZodType, O extends z.ZodType>(def: { input: I; output: O }): CallDef<I, O> {
  return { kind: 'call', ...def };
}

export function stream<I extends z.ZodType, E extends z.ZodType, R extends z.ZodType>(def: {
  input: I;
  event: E;
  result: R;
}): StreamDef<I, E, R> {
  return { kind: 'stream', ...def };
}

/** A subscription: a first event at once (the current state), then one on each change, until the caller cancels. */
export function watch<I extends z.ZodType, E extends z.ZodType, R extends z.ZodType>(def: {
  input: I;
  event: E;
  result: R;
}): StreamDef<I, E, R> {
  return { kind: 'stream', endless: true, ...def };
}
