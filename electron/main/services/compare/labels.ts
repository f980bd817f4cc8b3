import type { ChatParams } from '@shared/contract/chat-conversation';
import type { ComparePane, CompareSet } from '@shared/contract/compare';
import type { AppErrorShape } from '@shared/errors';

/** A pane's parameters: the set's shared ones with the pane's own laid over them. */
export const paneParams = (set: Pick<CompareSet, 'params'>, pane: ComparePane): ChatParams => ({
  ...set.params,
  ...pane.params,
});

/** What each engine says of a pane (`EngineKind.describe`): its label, and the names that would give it away. */
export interface PaneLook {
  label: string;
  names: string[];
}

const show = (v: unknown) => (v === undefined ? 'default' : Array.isArray(v) ? v.join(' ') : String(v));

/**
 * Each pane's label, in the given order: the engine and model ("Ollama · llama3.2:latest"). Panes that would read
 * the same get the settings they differ in ("… (temperature 0.2)"), or a number when they differ in none.
 */
export function paneLabels(panes: ComparePane[], set: Pick<CompareSet, 'params'>, looks: PaneLook[]): string[] {
  const base = looks.map((l) => l.label);
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

/**
 * What could name a blind pane in an engine's words: its model (with and without its tag, and the last part of a
 * repo id), its provider, its endpoint's name.
 */
export function paneNames(pane: ComparePane, look: PaneLook): string[] {
  const model = pane.model;
  const out = [model, model.split(':')[0], model.split('/').at(-1)!, model.split('/').at(-1)!.split(':')[0]];
  out.push(...look.names);
  return [...new Set(out.filter((n) => n.trim().length >= 2))].sort((a, b) => b.length - a.length);
}

/**
 * An error as a blind pane shows it: the pane's names (`paneNames`) read as its label ("Model A"), and no details,
 * so a model that is not found or fails to load does not give the pane away before the vote.
 */
export function hideNames(error: AppErrorShape, names: string[], label: string): AppErrorShape {
  let message = error.message;
  for (const n of names) message = message.replace(new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), label);
  const { details: _details, ...rest } = error;
  return { ...rest, message };
}

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
