import { describe, expect, it } from 'vitest';
import type { LocalModel } from '@shared/contract/local-models';
import { GiB, kvCacheBytes, memoryLine, memoryTotal, RUNTIME_OVERHEAD } from '@shared/fit';
import { formatBytes } from '@shared/format-bytes';
import type { GgufFacts } from '../../electron/main/services/local/disk/gguf-facts';
import { loadPlan } from '../../electron/main/services/local/disk/plan';
import { LocalKind } from '../../electron/main/services/engines/local/kind';
import type { LocalPort } from '../../electron/main/services/engines/local/engine';

// An 8B-like model: 32 layers, 8 KV heads of 128, a 4.9 GB file; 16 GiB of RAM, no GPU.
const shape = {
  layers: 32,
  kvHeads: 8,
  keyLength: 128,
  valueLength: 128,
  contextLength: 131_072,
  source: 'header' as const,
};
const facts: GgufFacts = { architecture: 'llama', contextLength: 131_072, layers: 32, shape, embedding: false };
const SIZE = 4.9e9;
const hw = { ramBytes: 16 * GiB, vramBytes: 0, unified: false };

/** The built-in engine's kind with one model on disk, loaded or not, as Compare asks it. */
function kindWith(model: LocalModel, loaded: { contextSize: number; memoryBytes: number; sequences: number }[] = []) {
  const port = {
    model: async () => model,
    runtime: { status: () => ({ loaded: loaded.map((l) => ({ ...l, id: model.id })) }) },
  } as unknown as LocalPort;
  return new LocalKind(port);
}

describe('one memory figure for a built-in model', () => {
  it('the load plan carries the parts its verdict counts: every sequence’s KV cache, not one', () => {
    const plan = loadPlan(facts, SIZE, hw);
    expect(plan.sequences).toBe(4);
    expect(plan.memory).toEqual({
      fileBytes: SIZE,
      kvBytes: kvCacheBytes(shape, 8192) * 4,
      runtimeBytes: RUNTIME_OVERHEAD,
    });
    // The verdict's explanation says the same total and the same parts, labelled.
    const total = memoryTotal(plan.memory!);
    expect(plan.explanation).toContain(
      `file ${formatBytes(SIZE)} + KV cache ${formatBytes(kvCacheBytes(shape, 8192) * 4)}`,
    );
    expect(plan.explanation).toContain('for 8,192 tokens × 4 requests at once');
    expect(plan.explanation).toContain(`needs about ${(total / 1e9).toFixed(1)} GB`);
    expect(memoryLine(plan.memory!)).toBe(
      `about ${formatBytes(total)} (file ${formatBytes(SIZE)} + KV cache ${formatBytes(plan.memory!.kvBytes)} + runtime ${formatBytes(RUNTIME_OVERHEAD)})`,
    );
  });

  it('Compare’s figure for a model not loaded is the plan’s, at the plan’s context and scaled for another', async () => {
    const plan = loadPlan(facts, SIZE, hw);
    const model = { id: 'org/m/m.gguf', name: 'm', sizeBytes: SIZE, plan } as LocalModel;
    const kind = kindWith(model);
    expect((await kind.footprint({ backend: 'local', model: model.id }, undefined)).bytes).toBe(
      memoryTotal(plan.memory!),
    );
    const half = await kind.footprint({ backend: 'local', model: model.id }, 4096);
    expect(half.bytes).toBe(SIZE + kvCacheBytes(shape, 4096) * 4 + RUNTIME_OVERHEAD);
  });

  it('loaded: Compare shows what the engine card shows (llama.cpp’s count)', async () => {
    const plan = loadPlan(facts, SIZE, hw);
    const model = { id: 'org/m/m.gguf', name: 'm', sizeBytes: SIZE, plan } as LocalModel;
    const kind = kindWith(model, [{ contextSize: 8192, memoryBytes: 6.2e9, sequences: 4 }]);
    expect(await kind.footprint({ backend: 'local', model: model.id }, 8192)).toMatchObject({
      loaded: true,
      bytes: 6.2e9,
    });
  });
});
