import { freemem } from 'node:os';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { ComparePane } from '@shared/contract/compare';
import type { HardwareView } from '@shared/contract/hardware';
import type { Engines } from '../engines/registry';
import type { FootprintRound } from '../engines/types';
import type { MemoryFigures, PaneNeed } from './scheduler';

/** Where the memory figures come from: each pane's engine, and the hardware (else `os.freemem()` alone). */
export interface MemorySources {
  engines: Pick<Engines, 'kind'>;
  hardware?: { view(): Promise<HardwareView> };
}

/** Free memory: the RAM, plus the VRAM a discrete GPU has free (unified memory is the RAM already). */
async function freeBytes(hardware: MemorySources['hardware']): Promise<number> {
  const view = await hardware?.view().catch(() => undefined);
  if (!view) return freemem();
  const h = view.effective;
  const vram = h.unified ? 0 : h.gpus.reduce((a, g) => a + (g.vramFree ?? g.vramTotal), 0);
  return h.ramFree + vram;
}

/** What each pane's model needs and holds, and what is free: the scheduler's input. */
export async function gatherMemory(
  panes: { pane: ComparePane; params: ChatParams }[],
  src: MemorySources,
): Promise<MemoryFigures> {
  // Lookups several panes share (Ollama's lists) are asked once per plan.
  const asked = new Map<string, Promise<unknown>>();
  const round: FootprintRound = {
    once: <T>(key: string, fn: () => Promise<T>) => {
      if (!asked.has(key)) asked.set(key, fn());
      return asked.get(key) as Promise<T>;
    },
  };
  const [free, needs] = await Promise.all([
    freeBytes(src.hardware),
    Promise.all(
      panes.map(async ({ pane, params }): Promise<PaneNeed> => {
        const ctx = params.num_ctx;
        const f = await src.engines.kind(pane.backend).footprint(pane, ctx, round);
        return { ...f, instance: String(ctx ?? '') };
      }),
    ),
  ]);
  return { freeBytes: free, panes: needs };
}
