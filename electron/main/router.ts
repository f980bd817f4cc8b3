import type { z } from 'zod';
import {
  contract,
  isCallName,
  isStreamName,
  type CallName,
  type Output,
  type ParsedInput,
  type StreamEvent,
  type StreamName,
  type StreamResult,
} from '@shared/contract';
import { AppError, toAppError } from '@shared/errors';
import { describeInputIssues } from '@shared/input-labels';
import type { StreamPayload } from '@shared/transport';
import type { Logger } from './services/log';
import type { StreamContext } from './services/stream-context';

export type Handlers = {
  [K in CallName]: (input: ParsedInput<K>) => Promise<Output<K>> | Output<K>;
} & {
  [K in StreamName]: (input: ParsedInput<K>, ctx: StreamContext<StreamEvent<K>>) => Promise<StreamResult<K>>;
};

export type StreamSink = (msg: StreamPayload) => void;

export interface RunningStream {
  cancel(): void;
  /** Settles when the handler has finished and the last message was sent. */
  done: Promise<void>;
}

/** Minimum gap between two event batches: at most one batch per animation frame. */
export const BATCH_MS = 16;

/** The message names fields in words (shared/input-labels.ts); `details.issues` keeps the paths for field errors. */
function parseInput(schema: z.ZodType, raw: unknown): unknown {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message }));
  return new AppError('invalid_input', describeInputIssues(issues), { details: { issues } });
}

/** Maps contract calls to handlers; validates every input; never throws anything but AppError. */
export class Router {
  constructor(
    private readonly handlers: Handlers,
    private readonly log: Logger,
    private readonly batchMs = BATCH_MS,
  ) {}

  async call(name: string, raw: unknown): Promise<unknown> {
    if (!isCallName(name)) throw new AppError('invalid_input', `Unknown call: ${String(name).slice(0, 80)}`);
    const input = parseInput(contract[name].input, raw);
    if (input instanceof AppError) throw input;
    try {
      const handler = this.handlers[name] as (i: unknown) => unknown;
      return await handler(input);
    } catch (e) {
      const err = toAppError(e);
      if (err.code === 'internal') this.log.error(`call ${name} failed`, { message: err.message });
      throw err;
    }
  }

  stream(name: string, raw: unknown, sink: StreamSink): RunningStream {
    const controller = new AbortController();
    const fail = (error: AppError): RunningStream => {
      sink({ type: 'error', error: error.toJSON() });
      return { cancel: () => {}, done: Promise.resolve() };
    };
    if (!isStreamName(name)) return fail(new AppError('invalid_input', `Unknown stream: ${String(name).slice(0, 80)}`));
    const input = parseInput(contract[name].input, raw);
    if (input instanceof AppError) return fail(input);

    let buffer: unknown[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastFlush = 0;
    let finished = false;
    const flush = () => {
      timer = undefined;
      lastFlush = performance.now();
      if (buffer.length === 0) return;
      const events = buffer;
      buffer = [];
      sink({ type: 'events', events });
    };
    // Leading edge: a quiet stream's event goes out at once; a busy one is coalesced per frame.
    const emit = (event: unknown) => {
      if (finished || controller.signal.aborted) return;
      buffer.push(event);
      if (timer) return;
      const wait = this.batchMs - (performance.now() - lastFlush);
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    };
    const finish = (msg: Parameters<StreamSink>[0]) => {
      if (finished) return;
      if (timer) clearTimeout(timer);
      flush();
      finished = true;
      sink(msg);
    };

    const handler = this.handlers[name] as (i: unknown, ctx: StreamContext<unknown>) => Promise<unknown>;
    const done = (async () => {
      try {
        const result = await handler(input, { signal: controller.signal, emit });
        if (controller.signal.aborted) throw new AppError('aborted', 'Cancelled.');
        finish({ type: 'end', result });
      } catch (e) {
        const err = controller.signal.aborted ? new AppError('aborted', 'Cancelled.') : toAppError(e);
        if (err.code === 'internal') this.log.error(`stream ${name} failed`, { message: err.message });
        finish({ type: 'error', error: err.toJSON() });
      }
    })();
    return { cancel: () => controller.abort(), done };
  }
}
