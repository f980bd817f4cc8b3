import type { LocalModel } from '@shared/contract/local-models';
import { AppError } from '@shared/errors';
import type { HostComplete, HostGenerate, HostGenerated, HostModel, HostPiece, HostRequest } from './protocol';
import type { Sequences } from './sequences';
import type { HostSupervisor } from './supervisor';

/** A loaded model held for one use: it is not unloaded while held. A chat use holds one of its sequences. */
export interface Lease {
  readonly model: LocalModel;
  readonly contextSize: number;
  /** Whether this use loaded it (its load time counts in the reply's figures). */
  readonly loaded: boolean;
  generate(
    gen: Omit<HostGenerate, 'model' | 'slot'>,
    onPieces: (pieces: HostPiece[]) => void,
    signal: AbortSignal,
  ): Promise<HostGenerated>;
  /** A plain-text completion on the same sequence (OpenAI's /v1/completions). */
  complete(
    req: Omit<HostComplete, 'model' | 'slot'>,
    onPieces: (pieces: HostPiece[]) => void,
    signal: AbortSignal,
  ): Promise<HostGenerated>;
  release(): void;
}

/** What a lease needs of a loaded model: the runtime's entry for it. */
export interface LeasedModel {
  model: LocalModel;
  host: HostModel;
  contextSize: number;
  queue: Sequences;
  /** Uses that keep it loaded; the runtime counts one in before a lease opens, the lease counts it out. */
  leases: number;
}

/**
 * A use of `e`, holding `slot` (taken from its queue) until released; `released` is told once the host has finished
 * with the sequence, so the model's idle timer starts only then.
 */
export function openLease(
  e: LeasedModel,
  slot: number | undefined,
  loaded: boolean,
  ctx: { host: Pick<HostSupervisor, 'request'>; released(): void },
): Lease {
  /** Settles when the host has finished with the sequence (an aborted reply returns before that). */
  let settled: Promise<unknown> = Promise.resolve();
  let held = true;
  const run = (
    req: (slot: number) => HostRequest,
    onPieces: (pieces: HostPiece[]) => void,
    signal: AbortSignal,
  ): Promise<HostGenerated> => {
    if (slot === undefined) throw new AppError('internal', 'This lease holds no sequence.');
    const running = ctx.host.request<{ op: 'generate' | 'complete'; generated: HostGenerated }>(req(slot), {
      signal,
      onPieces,
    });
    settled = running.catch(() => {});
    // Stop answers at once: the host finishes the abort on its own, and the sequence stays busy until it has.
    const stopped = new Promise<never>((_, reject) => {
      const onAbort = () => reject(new AppError('aborted', 'Stopped.'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      void settled.then(() => signal.removeEventListener('abort', onAbort));
    });
    return Promise.race([running.then((r) => r.generated), stopped]);
  };
  return {
    model: e.model,
    contextSize: e.contextSize,
    loaded,
    generate: (gen, onPieces, signal) =>
      run((s) => ({ op: 'generate', generate: { ...gen, model: e.host, slot: s } }), onPieces, signal),
    complete: (req, onPieces, signal) =>
      run((s) => ({ op: 'complete', complete: { ...req, model: e.host, slot: s } }), onPieces, signal),
    release: () => {
      if (!held) return;
      held = false;
      void settled.then(() => {
        e.leases--;
        if (slot !== undefined) e.queue.free(slot);
        ctx.released();
      });
    },
  };
}
