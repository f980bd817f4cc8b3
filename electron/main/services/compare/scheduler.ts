import type { ComparePlan } from '@shared/contract/compare';
import { gb } from '@shared/fit';

/** Where a pane's model runs: here (Ollama, the built-in engine) or on another server. */
export type PaneWhere = ComparePlan['panes'][number]['where'];

/** What the scheduler knows of one pane's model (memory.ts gathers it from each engine's `footprint`). */
export interface PaneNeed {
  where: PaneWhere;
  /** Who holds the model, as the plan says it ("Ollama", "The built-in engine"). */
  engine: string;
  /** The model as named to the person ("llama3.2:latest", a GGUF's name). */
  name: string;
  /** How many requests the engine answers at once with it (the built-in engine's sequences); undefined: any. */
  parallel?: number;
  /** The model's identity where it runs: two panes with the same key use one loaded model. */
  key: string;
  /** The settings a model is loaded with (the context length): another value is another load of the same model. */
  instance: string;
  /** Memory the model holds once loaded, when known. */
  bytes?: number;
  loaded: boolean;
}

export interface MemoryFigures {
  /** Memory free now: RAM, plus the free VRAM of a discrete GPU. */
  freeBytes: number;
  panes: PaneNeed[];
}

/** Kept free for the OS, the app and the KV caches a model's file size leaves out. */
const HEADROOM_BYTES = 1e9;

const plan = (mode: ComparePlan['mode'], reason: string, panes: PaneNeed[]): ComparePlan => ({
  mode,
  reason,
  panes: panes.map((p) => ({ where: p.where, loaded: p.loaded, ...(p.bytes !== undefined ? { bytes: p.bytes } : {}) })),
});

/**
 * Together or one after another, from memory figures: local models run in parallel only when they fit in memory
 * together (each model counted once; what they already hold counts as free, since loading them again costs
 * nothing). A model asked with two context lengths is two loads that cannot coexist, and more panes on one model than
 * its engine answers at once (the built-in engine's sequences) would queue: both run one after another. Panes on
 * other servers always run alongside.
 */
export function schedule(m: MemoryFigures): ComparePlan {
  const here = m.panes.filter((p) => p.where !== 'remote');
  if (!here.length) return plan('parallel', 'Every pane runs on another server: they all answer at once.', m.panes);
  const groups = new Map<string, PaneNeed[]>();
  for (const p of here) groups.set(p.key, [...(groups.get(p.key) ?? []), p]);
  for (const same of groups.values()) {
    const first = same[0];
    if (new Set(same.map((p) => p.instance)).size > 1)
      return plan(
        'sequential',
        `${first.name} is asked with two context lengths, and ${first.engine} holds it with one at a time: they run one after another.`,
        m.panes,
      );
    if (first.parallel !== undefined && same.length > first.parallel)
      return plan(
        'sequential',
        `${first.engine} answers with ${first.name} ${first.parallel === 1 ? 'one request' : `${first.parallel} requests`} at a time: they run one after another.`,
        m.panes,
      );
  }
  const distinct = [...groups.values()].map((g) => g[0]);
  if (distinct.length === 1) {
    const only = distinct[0];
    return plan(
      'parallel',
      `One model runs on this machine (${only.name}${only.bytes !== undefined ? `, ${gb(only.bytes)}` : ''}): they all answer at once.`,
      m.panes,
    );
  }
  const unknown = distinct.find((p) => p.bytes === undefined);
  if (unknown)
    return plan(
      'sequential',
      `How much memory ${unknown.name} needs is not known: they run one after another.`,
      m.panes,
    );
  const need = distinct.reduce((a, p) => a + p.bytes!, 0);
  const held = distinct.reduce((a, p) => a + (p.loaded ? p.bytes! : 0), 0);
  const free = m.freeBytes + held;
  if (need + HEADROOM_BYTES <= free) {
    const who = distinct.length === 2 ? 'Both models' : `All ${distinct.length} models`;
    return plan('parallel', `${who} fit in memory together (${gb(need)} of ${gb(free)} free).`, m.panes);
  }
  return plan(
    'sequential',
    `Together they need ${gb(need)} and ${gb(free)} is free: they run one after another.`,
    m.panes,
  );
}
