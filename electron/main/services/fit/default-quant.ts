import type { GgufHeader } from '@shared/contract/hardware';
import { defaultContext, fitHardware, FALLBACK_QUANT, kvShapeFor, planQuants } from '@shared/fit';
import type { ModelRecord } from '@shared/model-record';
import type { HardwareService } from '../hardware/service';
import { ggufQuants } from '../hub/gguf';
import type { GgufHeaderReader } from './gguf-header';

/**
 * The quant the model page would pick for this machine: the same plan (shared/fit.ts) over the same inputs —
 * the effective hardware, the GGUF header of the repo's Q4_K_M file (else the estimate), the default context.
 */
export async function fitDefaultQuant(
  model: ModelRecord,
  deps: { hardware: HardwareService; headers?: GgufHeaderReader },
): Promise<string | undefined> {
  const quants = ggufQuants(model.siblings);
  if (quants.length === 0) return undefined;
  const file = (quants.find((q) => q.label === FALLBACK_QUANT) ?? quants[0]).files[0];
  let header: GgufHeader | undefined;
  try {
    header = deps.headers ? await deps.headers.read(model.id, file) : undefined;
  } catch {
    // As on the page: an unreadable header means the estimate from the Hub's fields.
    header = undefined;
  }
  const shape = kvShapeFor(header, model.gguf);
  const hw = (await deps.hardware.view()).effective;
  return planQuants(quants, fitHardware(hw), shape, defaultContext(shape.contextLength)).defaultLabel;
}
