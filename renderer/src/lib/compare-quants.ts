import type { CompareSetInput } from '@shared/contract/compare';
import { defaultQuant, type FitResult } from '@shared/fit';
import { formatBytes } from '@shared/format-bytes';
import { plural } from '@shared/plural';
import { quantWords, type QuantEngine } from './engines';

/**
 * "Compare quants" on a GGUF model page, the pure part: which quants are ticked when the dialog opens, what the
 * confirm button says it will do, and the comparison set it hands to the Compare page.
 */

export interface QuantChoice {
  label: string;
  size?: number;
  verdict?: FitResult['verdict'];
}

/** At most this many panes come from one dialog (Compare takes 4, but three quants already read side by side). */
export const MAX_QUANTS = 3;

const REFERENCE = 'Q8_0';

const bySize = (a: QuantChoice, b: QuantChoice) => (a.size ?? Infinity) - (b.size ?? Infinity);

/**
 * The two quants ticked at first: the CPU-sensible default (the largest Q4_K_M-class quant that fits, else Q4_K_M,
 * else the smallest) against Q8_0, the near-lossless reference, when the repo has it; else against its nearest
 * neighbour by size (the next larger, or the next smaller at the top). Smallest first.
 */
export function initialPicks(quants: QuantChoice[]): string[] {
  if (quants.length < 2) return [];
  const first = defaultQuant(quants, { cpuOnly: true }) ?? quants[0].label;
  const ref = quants.find((q) => q.label.toUpperCase() === REFERENCE);
  let other = ref && ref.label !== first ? ref.label : undefined;
  if (!other) {
    const sorted = [...quants].sort(bySize);
    const at = sorted.findIndex((q) => q.label === first);
    other = (sorted[at + 1] ?? sorted[at - 1]).label;
  }
  return inSizeOrder(quants, [first, other]);
}

/** The picked labels in the table's size order (smallest first), so the panes read from light to heavy. */
export function inSizeOrder(quants: QuantChoice[], picked: readonly string[]): string[] {
  return [...quants]
    .sort(bySize)
    .map((q) => q.label)
    .filter((l) => picked.includes(l));
}

/** The Ollama model a quant of a Hub repo pulls as. */
export const ollamaName = (repo: string, label: string) => `hf.co/${repo}:${label}`;

/** What the confirm button says: "Compare", or what it fetches first ("Pull 1 model (8.5 GB) and compare"). */
export function confirmLabel(engine: QuantEngine, missing: { size?: number }[]): string {
  if (missing.length === 0) return 'Compare';
  const { verb, noun: one } = quantWords(engine);
  const noun = plural(missing.length, one);
  const sizes = missing.map((m) => m.size);
  const total = sizes.every((s) => s !== undefined) ? ` (${formatBytes(sizes.reduce((a, b) => a + b, 0))})` : '';
  return `${verb} ${noun}${total} and compare`;
}

/** The line above the panes: "Q4_K_M against Q8_0 of org/repo" (three: "Q2_K against Q4_K_M and Q8_0 of …"). */
export function compareNote(repo: string, labels: readonly string[]): string {
  const [first, ...rest] = labels;
  const others = rest.length > 1 ? `${rest.slice(0, -1).join(', ')} and ${rest.at(-1)}` : rest[0];
  return `${first} against ${others} of ${repo}`;
}

/** The set for the Compare page: one pane per quant on the chosen engine (`models`: each quant's model there). */
export function quantSet(engine: QuantEngine, models: readonly string[]): CompareSetInput {
  return { panes: models.map((model) => ({ backend: engine, model })) };
}
