import { freemem } from 'node:os';
import type { ChatParams } from '@shared/contract/chat';
import type { ComparePane } from '@shared/contract/compare';
import type { HardwareView } from '@shared/contract/hardware';
import type { EngineStatus, LocalModel } from '@shared/contract/local';
import type { LocalModel as OllamaModel, RunningModel } from '@shared/contract/ollama';
import { estimateKvShape, fitQuant, kvCacheBytes } from '@shared/fit';
import type { MemoryFigures, PaneNeed } from './scheduler';

/** Where the memory figures come from (all optional but Ollama: a figure that cannot be read is unknown). */
export interface MemorySources {
  ollama: { ps(): Promise<{ models: RunningModel[] }>; list(): Promise<{ models: OllamaModel[] }> };
  local?: { model(id: string): Promise<LocalModel>; runtime: { status(): EngineStatus } };
  hardware?: { view(): Promise<HardwareView> };
}

const withTag = (n: string) => (n.includes(':') ? n : `${n}:latest`);
const sameModel = (a: string, b: string) => withTag(a).toLowerCase() === withTag(b).toLowerCase();

/** Free memory: the RAM, plus the VRAM a discrete GPU has free (unified memory is the RAM already). */
async function freeBytes(hardware: MemorySources['hardware']): Promise<number> {
  const view = await hardware?.view().catch(() => undefined);
  if (!view) return freemem();
  const h = view.effective;
  const vram = h.unified ? 0 : h.gpus.reduce((a, g) => a + (g.vramFree ?? g.vramTotal), 0);
  return h.ramFree + vram;
}

/**
 * A built-in model's memory before it is loaded: the fit verdict's sum (file + KV cache + runtime) for the context
 * it will load with, the KV shape estimated with the layer count the load plan read from the file.
 */
function localNeed(m: LocalModel, ctx: number | undefined): number {
  const contextSize = ctx ?? m.plan?.contextSize ?? 4096;
  const shape = { ...estimateKvShape(undefined), ...(m.plan?.layers ? { layers: m.plan.layers } : {}) };
  const hw = { ramBytes: Number.MAX_SAFE_INTEGER, vramBytes: 0, unified: false };
  return fitQuant(m.sizeBytes, kvCacheBytes(shape, contextSize), hw, contextSize).needBytes;
}

/** What each pane's model needs and holds, and what is free: the scheduler's input. */
export async function gatherMemory(
  panes: { pane: ComparePane; params: ChatParams }[],
  src: MemorySources,
): Promise<MemoryFigures> {
  const wantsOllama = panes.some((p) => p.pane.backend === 'ollama');
  const [ps, tags, free] = await Promise.all([
    wantsOllama ? src.ollama.ps().catch(() => undefined) : undefined,
    wantsOllama ? src.ollama.list().catch(() => undefined) : undefined,
    freeBytes(src.hardware),
  ]);
  const status = src.local?.runtime.status();
  const needs = await Promise.all(
    panes.map(async ({ pane, params }): Promise<PaneNeed> => {
      const ctx = params.num_ctx;
      const instance = String(ctx ?? '');
      if (pane.backend === 'ollama') {
        const running = ps?.models.find((r) => sameModel(r.name, pane.model));
        const loaded =
          !!running && (ctx === undefined || running.context_length === undefined || running.context_length === ctx);
        const size = loaded ? running!.size : tags?.models.find((t) => sameModel(t.name, pane.model))?.size;
        const key = `ollama\n${withTag(pane.model).toLowerCase()}`;
        return { where: 'ollama', name: pane.model, key, instance, loaded, ...(size ? { bytes: size } : {}) };
      }
      if (pane.backend === 'local') {
        const m = await src.local?.model(pane.model).catch(() => undefined);
        const entry = status?.loaded.find((l) => l.id === pane.model);
        const loaded = !!entry && (ctx === undefined || entry.contextSize === ctx);
        const bytes = loaded ? entry!.memoryBytes : m ? localNeed(m, ctx) : undefined;
        const name = m?.name ?? pane.model;
        return { where: 'local', name, key: `local\n${pane.model}`, instance, loaded, ...(bytes ? { bytes } : {}) };
      }
      return { where: 'remote', name: pane.model, key: `remote\n${pane.model}`, instance, loaded: false };
    }),
  );
  return { freeBytes: free, panes: needs };
}
