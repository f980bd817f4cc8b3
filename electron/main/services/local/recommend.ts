import type { LocalModel, Recommendation } from '@shared/contract/local';
import type { FitHardware } from '@shared/fit';

/** The GGUF offered when nothing local is set up: the largest of a short list that fits this machine. */
export function recommend(hw: FitHardware | undefined, models: LocalModel[]): Recommendation | undefined {
  void hw;
  void models;
  return undefined;
}
