import { describe, expect, test } from 'vitest';
import { GiB, type FitHardware } from '@shared/fit';
import type { GgufFacts } from '../../electron/main/services/local/disk/gguf-facts';
import { loadPlan } from '../../electron/main/services/local/disk/plan';

// An 8B-like model: 32 layers, 8 KV heads of 128, trained for 128k tokens, a 4.9 GB file.
const facts: GgufFacts = {
  architecture: 'llama',
  contextLength: 131_072,
  layers: 32,
  shape: { layers: 32, kvHeads: 8, keyLength: 128, valueLength: 128, contextLength: 131_072, source: 'header' },
  embedding: false,
};
const SIZE = 4.9e9;
const hw = (ramGiB: number, vramGiB = 0): FitHardware => ({
  ramBytes: ramGiB * GiB,
  vramBytes: vramGiB * GiB,
  unified: false,
});

describe('loadPlan', () => {
  test('a long trained context is capped at 8192 when it fits', () => {
    expect(loadPlan(facts, SIZE, hw(16))).toMatchObject({
      contextSize: 8192,
      maxContext: 131_072,
      gpuLayers: 0,
      layers: 32,
      verdict: 'ram',
    });
  });

  test('the context shrinks until the model fits where it can', () => {
    expect(loadPlan(facts, SIZE, hw(7))).toMatchObject({ contextSize: 4096, verdict: 'ram' });
    // 6 GB VRAM: 8192 tokens would spill to the CPU, 4096 keep it all on the GPU.
    expect(loadPlan(facts, SIZE, hw(32, 6))).toMatchObject({ contextSize: 4096, verdict: 'vram', gpuLayers: 32 });
  });

  test('partial offload: the share of layers VRAM holds', () => {
    const p = loadPlan(facts, SIZE, hw(32, 3));
    expect(p).toMatchObject({ contextSize: 8192, verdict: 'partial', gpuLayers: 14 });
  });

  test('too large everywhere: the plan says so, at the smallest context tried', () => {
    expect(loadPlan(facts, SIZE, hw(4))).toMatchObject({ verdict: 'too-large', gpuLayers: 0, contextSize: 8192 });
  });

  test('a short trained context is kept; no hardware: no verdict', () => {
    const short = { ...facts, contextLength: 2048 };
    expect(loadPlan(short, SIZE, hw(16))).toMatchObject({ contextSize: 2048, maxContext: 2048 });
    expect(loadPlan(facts, SIZE, undefined)).toEqual({
      contextSize: 4096,
      maxContext: 131_072,
      gpuLayers: 0,
      layers: 32,
      sequences: 1,
    });
  });

  test('parallel requests: as many sequences (each its own KV cache) as keep the verdict, at most 4', () => {
    // 8192 tokens of f16 KV for this shape is 1 GiB a sequence.
    expect(loadPlan(facts, SIZE, hw(16))).toMatchObject({ verdict: 'ram', contextSize: 8192, sequences: 4 });
    expect(loadPlan(facts, SIZE, hw(64))).toMatchObject({ sequences: 4 });
    // A second sequence would push it out of VRAM: one.
    expect(loadPlan(facts, SIZE, hw(32, 6))).toMatchObject({ verdict: 'vram', sequences: 1 });
    // Enough VRAM for two sequences beside the weights, not three.
    expect(loadPlan(facts, SIZE, hw(32, 7.2))).toMatchObject({ verdict: 'vram', contextSize: 8192, sequences: 2 });
    expect(loadPlan(facts, SIZE, hw(4))).toMatchObject({ verdict: 'too-large', sequences: 1 });
  });

  test('without a KV shape in the header: estimated from the parameter count', () => {
    const p = loadPlan({ architecture: 'mystery', parameterCount: 8e9, embedding: false }, SIZE, hw(16));
    expect(p.verdict).toBe('ram');
    expect(p.explanation).toMatch(/estimated/);
    expect(p.layers).toBeGreaterThan(0);
  });
});
