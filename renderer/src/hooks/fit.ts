import { useMemo, useState } from 'react';
import type { GgufHeader, HardwareView } from '@shared/contract/hardware';
import type { GgufQuant } from '@shared/contract/hub-repo';
import type { AppError, AppErrorShape } from '@shared/errors';
import {
  defaultContext,
  defaultQuant,
  fitHardware,
  FALLBACK_QUANT,
  kvShapeFor,
  kvShapeFromHeader,
  planQuants,
  type FitResult,
  type KvShape,
} from '@shared/fit';
import type { ModelRecord } from '@shared/model-record';
import { api } from '../api';
import { useHubModelFacts } from './hub';
import { useQuery } from './query';

export interface FitPlan {
  /** Undefined until the hardware is known. */
  hardware?: HardwareView;
  hardwareError?: AppError;
  shape?: KvShape;
  /** Why the header was not read, when the KV cache is an estimate. */
  headerNote?: string;
  ctx: number;
  maxCtx?: number;
  setCtx(n: number): void;
  rows: (GgufQuant & { fit?: FitResult })[];
  defaultLabel?: string;
  /** Why the default was picked (shown beside its badge), once the verdicts are known. */
  defaultWhy?: string;
}

/** The file whose header describes the repo's architecture (all quants share it): Q4_K_M's, else the first. */
function headerFile(quants: GgufQuant[]): string | undefined {
  return (quants.find((q) => q.label === FALLBACK_QUANT) ?? quants[0])?.files[0];
}

/** Hardware (main) + GGUF header (main, range requests) → a verdict per quant and the default quant. */
export function useFit(id: string, model: ModelRecord | undefined, quants: GgufQuant[]): FitPlan {
  const [userCtx, setCtx] = useState<number>();
  const file = headerFile(quants);

  // Only a GGUF repo's quantizations need the machine: other pages send nothing.
  const machine = useQuery(() => api.call('system.hardware', {}), [], quants.length > 0);
  const hardware = machine.state === 'ok' ? machine.data : undefined;
  const hardwareError = machine.state === 'error' ? (machine.error as AppError) : undefined;

  // A header read for another repo's file does not describe this one: it is asked again, and absent meanwhile.
  const read = useQuery(() => api.call('hub.ggufHeader', { id, file: file! }), [id, file], !!file);
  const readData = read.state === 'ok' ? read.data : undefined;
  const readError = read.state === 'error' ? read.error : undefined;
  const header = useMemo((): { file: string; header?: GgufHeader; error?: AppErrorShape } | undefined => {
    if (!file || (!readData && !readError)) return undefined;
    return readData ? { file, header: readData } : { file, error: readError };
  }, [file, readData, readError]);

  const fromHeader = header?.header ? kvShapeFromHeader(header.header) : undefined;
  const total = model?.gguf?.total;
  const maxTrained = model?.gguf?.context_length;
  // The same shape the CLI uses (kvShapeFor): the header's, else the estimate from the Hub's `gguf` fields.
  const shape = useMemo(
    () => (header ? kvShapeFor(header.header, { total, context_length: maxTrained }) : undefined),
    [header, total, maxTrained],
  );
  const maxCtx = shape?.contextLength ?? model?.gguf?.context_length;
  const ctx = userCtx ?? defaultContext(maxCtx);
  const plan = useMemo(() => {
    if (!hardware || !shape) return { rows: quants, defaultLabel: defaultQuant(quants) };
    return planQuants(quants, fitHardware(hardware.effective), shape, ctx);
  }, [hardware, shape, quants, ctx]);

  let headerNote: string | undefined;
  if (header?.error)
    headerNote = `The GGUF header of ${header.file} could not be read (${header.error.message}) The KV cache is estimated from the Hub's parameter count.`;
  else if (header && !fromHeader)
    headerNote = `The GGUF header of ${header.file} lacks attention sizes: the KV cache is estimated.`;
  return { hardware, hardwareError, shape, headerNote, ctx, maxCtx, setCtx, ...plan };
}

/**
 * The machine the verdicts compare with (after the Settings override), asked once `enabled` (there is something to
 * judge); undefined until main answers, or when it fails.
 */
export function useHardware(enabled: boolean): HardwareView | undefined {
  const machine = useQuery(() => api.call('system.hardware', {}), [], enabled);
  return machine.state === 'ok' ? machine.data : undefined;
}

/** A list row's verdict: the quant HubDesk would pick (the page's default), with its fit when the machine is known. */
export type BestFit =
  | { state: 'loading' }
  | { state: 'error' }
  /** The repo lists no GGUF file with a size. */
  | { state: 'unknown' }
  | { state: 'ok'; label: string; size: number; fit?: FitResult };

/**
 * The best verdict for a GGUF repo without reading a file's header: the KV cache is estimated from the Hub's
 * parameter count (the model page reads the header and may say a little less).
 */
export function useBestFit(id: string, hardware: HardwareView | undefined): BestFit {
  const { live } = useHubModelFacts(id);
  return useMemo((): BestFit => {
    if (live.state === 'loading') return { state: 'loading' };
    if (live.state !== 'ok') return { state: 'error' };
    const sized = live.quants.filter((q): q is GgufQuant & { size: number } => q.size !== undefined);
    if (sized.length === 0) return { state: 'unknown' };
    const gguf = live.model.gguf;
    const plan = hardware
      ? planQuants(
          sized,
          fitHardware(hardware.effective),
          kvShapeFor(undefined, gguf),
          defaultContext(gguf?.context_length),
        )
      : { rows: sized as (GgufQuant & { size: number; fit?: FitResult })[], defaultLabel: defaultQuant(sized) };
    const best = plan.rows.find((r) => r.label === plan.defaultLabel) ?? plan.rows[0];
    return { state: 'ok', label: best.label, size: best.size, fit: best.fit };
  }, [live, hardware]);
}
