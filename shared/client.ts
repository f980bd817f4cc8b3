import type { CallName, Input, Output, StreamEvent, StreamName, StreamResult } from './contract';
import type { Transport } from './transport';

export interface StreamHandle<R> {
  /** Resolves with the stream's result; rejects with an AppError (code `aborted` after cancel). */
  result: Promise<R>;
  cancel(): void;
}

/** The typed client the renderer (and tests) use: names, inputs and outputs checked by the compiler. */
export interface HubDeskClient {
  call<K extends CallName>(name: K, input: Input<K>): Promise<Output<K>>;
  stream<K extends StreamName>(
    name: K,
    input: Input<K>,
    onEvents: (events: StreamEvent<K>[]) => void,
  ): StreamHandle<StreamResult<K>>;
}

export function createClient(transport: Transport): HubDeskClient {
  return {
    call: (name, input) => transport.call(name, input) as never,
    stream: (name, input, onEvents) => transport.stream(name, input, onEvents as (events: unknown[]) => void) as never,
  };
}
