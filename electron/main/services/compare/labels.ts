import type { ChatParams } from '@shared/contract/chat';
import type { ComparePane, CompareSet } from '@shared/contract/compare';

/** A pane's parameters: the set's shared ones with the pane's own laid over them. */
export const paneParams = (set: Pick<CompareSet, 'params'>, pane: ComparePane): ChatParams => ({
  ...set.params,
  ...pane.params,
});

/** What a label needs that the pane does not say: a built-in model's name, an endpoint's name. */
export interface LabelNames {
  local: (id: string) => string | undefined;
  endpoint: (id: string) => string | undefined;
}

function engineLabel(pane: ComparePane, names: LabelNames): string {
  if (pane.backend === 'ollama') return `Ollama · ${pane.model}`;
  if (pane.backend === 'local') return `Built-in · ${names.local(pane.model) ?? pane.model}`;
  if (pane.backend === 'provider')
    return `HF router · ${pane.model}${pane.provider && pane.provider !== 'auto' ? ` via ${pane.provider}` : ''}`;
  return `${(pane.endpoint && names.endpoint(pane.endpoint)) || 'Endpoint'} · ${pane.model}`;
}

const show = (v: unknown) => (v === undefined ? 'default' : Array.isArray(v) ? v.join(' ') : String(v));

/**
 * Each pane's label, in the given order: the engine and model ("Ollama · llama3.2:latest"). Panes that would read
 * the same get the settings they differ in ("… (temperature 0.2)"), or a number when they differ in none.
 */
export function paneLabels(panes: ComparePane[], set: Pick<CompareSet, 'params'>, names: LabelNames): string[] {
  const base = panes.map((p) => engineLabel(p, names));
  const params = panes.map((p) => paneParams(set, p));
  return base.map((label, i) => {
    const same = base.flatMap((b, j) => (b === label ? [j] : []));
    if (same.length < 2) return label;
    const keys = [...new Set(same.flatMap((j) => Object.keys(params[j])))].sort() as (keyof ChatParams)[];
    const differ = keys.filter((k) => new Set(same.map((j) => JSON.stringify(params[j][k] ?? null))).size > 1);
    if (!differ.length) return `${label} (${same.indexOf(i) + 1})`;
    return `${label} (${differ.map((k) => `${k} ${show(params[i][k])}`).join(', ')})`;
  });
}

/** Blind labels: "Model A", "Model B"… */
export const blindLabels = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `Model ${String.fromCharCode(65 + i)}`);

/** A seedable random source (mulberry32): blind shuffles repeat in tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The panes' indices in a shuffled order (Fisher–Yates). */
export function shuffledOrder(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
