import type { Hardware } from '@shared/contract/hardware';
import { defaultContext, estimateKvShape, fitHardware, fitQuant, kvCacheBytes, type FitResult } from '@shared/fit';
import type { ModelRecord } from '@shared/model-record';

/** MLX runs on Apple Silicon only: the GPU shares the system RAM (detected, or claimed by the Settings override). */
export const isAppleSilicon = (hw: Hardware) => hw.unified || hw.gpus.some((g) => g.vendor === 'apple');

/**
 * Which groups "Runs on this machine" shows: GGUF always; MLX as a list on Apple Silicon, elsewhere as a quiet note
 * (no empty group), and neither while the machine is not known yet.
 */
export function mlxGroup(hw: Hardware | undefined): 'list' | 'note' | 'none' {
  if (!hw) return 'none';
  return isAppleSilicon(hw) ? 'list' : 'note';
}

/** Bytes per parameter of a safetensors dtype (MLX's 4-bit weights are packed in U32, counted as such by the Hub). */
const dtypeBytes: Record<string, number> = { F64: 8, I64: 8, U64: 8, F32: 4, I32: 4, U32: 4, F16: 2, BF16: 2, I16: 2 };

/**
 * The weights an MLX repo loads: the sum of its `.safetensors` files (the Hub lists their sizes), else the parameter
 * count per dtype; undefined when the Hub says neither.
 */
export function mlxWeightsBytes(model: ModelRecord): number | undefined {
  const files = (model.siblings ?? []).filter((s) => s.rfilename.endsWith('.safetensors'));
  if (files.length > 0 && files.every((s) => s.size !== undefined)) return files.reduce((sum, s) => sum + s.size!, 0);
  const params = Object.entries(model.safetensors?.parameters ?? {});
  if (params.length === 0) return undefined;
  return params.reduce((sum, [dtype, n]) => sum + n * (dtypeBytes[dtype.toUpperCase()] ?? 1), 0);
}

/** An MLX repo's verdict against unified memory, as a GGUF quant's: the weights, the KV cache estimate, the runtime. */
export type MlxFit = { state: 'unknown' } | { state: 'ok'; label: 'MLX'; size: number; fit: FitResult };

export function mlxFit(model: ModelRecord, hw: Hardware): MlxFit {
  const size = mlxWeightsBytes(model);
  if (size === undefined) return { state: 'unknown' };
  const ctx = defaultContext();
  const shape = estimateKvShape(model.safetensors?.total);
  return {
    state: 'ok',
    label: 'MLX',
    size,
    fit: fitQuant(size, kvCacheBytes(shape, ctx), fitHardware(hw), ctx, shape),
  };
}
