import { gguf } from '@huggingface/gguf';
import { describe, expect, it } from 'vitest';
import {
  defaultContext,
  defaultQuant,
  estimateKvShape,
  fitHardware,
  fitQuant,
  kvCacheBytes,
  kvShapeFromHeader,
  kvShapeFromMetadata,
  planQuants,
  RUNTIME_OVERHEAD,
  type FitHardware,
  type KvShape,
} from '@shared/fit';
import { headerFacts } from '../../electron/main/services/fit/gguf-header';
import { llama32_1bHeader, writeGguf } from '../fixtures/gguf-writer';

const GiB = 1024 ** 3;
const llama1b: KvShape = {
  layers: 16,
  kvHeads: 8,
  keyLength: 64,
  valueLength: 64,
  contextLength: 131072,
  source: 'header',
};

describe('KV cache estimate', () => {
  it('is 2 × layers × ctx × kv_heads × head_dim × 2 bytes (f16)', () => {
    // Llama 3.2 1B at 4096 tokens: 2 × 16 × 4096 × 8 × 64 × 2 = 128 MiB.
    expect(kvCacheBytes(llama1b, 4096)).toBe(128 * 1024 ** 2);
    // Llama 3.1 8B (32 layers, 8 KV heads, head dim 128) at 8192 tokens: 1 GiB.
    expect(kvCacheBytes({ ...llama1b, layers: 32, keyLength: 128, valueLength: 128 }, 8192)).toBe(GiB);
  });
  it('takes head_dim from embedding_length / head_count unless key_length is given', () => {
    const noKeyLength = {
      'general.architecture': 'llama',
      'llama.block_count': 16,
      'llama.embedding_length': 2048,
      'llama.attention.head_count': 32,
      'llama.attention.head_count_kv': 8,
    };
    expect(kvShapeFromMetadata(noKeyLength)).toMatchObject({ layers: 16, kvHeads: 8, keyLength: 64, valueLength: 64 });
    expect(kvShapeFromMetadata({ ...noKeyLength, 'llama.attention.key_length': 128 })?.keyLength).toBe(128);
    // Without grouped-query attention, every head keeps its K and V.
    const { 'llama.attention.head_count_kv': _kv, ...mha } = noKeyLength;
    expect(kvShapeFromMetadata(mha)?.kvHeads).toBe(32);
    expect(kvShapeFromMetadata({ 'general.architecture': 'llama' })).toBeUndefined();
    expect(kvShapeFromMetadata({})).toBeUndefined();
  });
  it('estimates a shape from the parameter count when no header was read, and says so', () => {
    const s = estimateKvShape(8e9, 131072);
    expect(s.source).toBe('estimate');
    expect(s.layers).toBeGreaterThanOrEqual(32);
    expect(estimateKvShape(1.2e9).layers).toBeLessThan(s.layers);
    const r = fitQuant(GiB, kvCacheBytes(s, 4096), { ramBytes: 16 * GiB, vramBytes: 0, unified: false }, 4096, s);
    expect(r.explanation).toMatch(/estimated from the parameter count/);
  });
  it('defaults the context to 4096, or the model maximum if smaller', () => {
    expect(defaultContext(131072)).toBe(4096);
    expect(defaultContext(2048)).toBe(2048);
    expect(defaultContext(undefined)).toBe(4096);
  });
});

describe('fit verdicts', () => {
  const gpu8: FitHardware = { ramBytes: 32 * GiB, vramBytes: 8 * GiB, unified: false };
  const cpu16: FitHardware = { ramBytes: 16 * GiB, vramBytes: 0, unified: false };
  const kv = GiB;
  it('fits in VRAM when file + KV + overhead ≤ VRAM', () => {
    const r = fitQuant(6 * GiB, kv, gpu8, 8192, llama1b);
    expect(r.verdict).toBe('vram');
    expect(r.needBytes).toBe(7 * GiB + RUNTIME_OVERHEAD);
    expect(r.explanation).toMatch(/file 6\.0 GB \+ KV cache 1\.0 GB for 8,192 tokens/);
  });
  it('partial offload when it overflows VRAM but fits VRAM + usable RAM', () => {
    expect(fitQuant(7 * GiB, kv, gpu8, 8192).verdict).toBe('partial');
    expect(fitQuant(30 * GiB, kv, gpu8, 8192).verdict).toBe('partial');
  });
  it('too large beyond VRAM + 80 % of RAM', () => {
    expect(fitQuant(40 * GiB, kv, gpu8, 8192).verdict).toBe('too-large');
  });
  it('without a GPU: fits in RAM (CPU) or too large', () => {
    expect(fitQuant(10 * GiB, kv, cpu16, 8192).verdict).toBe('ram');
    expect(fitQuant(12 * GiB, kv, cpu16, 8192).verdict).toBe('too-large');
  });
  it('unified memory never says partial offload', () => {
    const mac: FitHardware = { ramBytes: 32 * GiB, vramBytes: 24 * GiB, unified: true };
    expect(fitQuant(20 * GiB, kv, mac, 8192).verdict).toBe('vram');
    expect(fitQuant(23 * GiB, kv, mac, 8192).verdict).toBe('ram');
  });
  it('uses the largest GPU of the machine', () => {
    expect(
      fitHardware({
        ramTotal: 64 * GiB,
        ramFree: 1,
        unified: false,
        gpus: [
          { name: 'a', vendor: 'nvidia', vramTotal: 12 * GiB },
          { name: 'b', vendor: 'nvidia', vramTotal: 24 * GiB },
        ],
      }),
    ).toEqual({ ramBytes: 64 * GiB, vramBytes: 24 * GiB, unified: false });
  });
});

describe('default quant', () => {
  it('is the largest that fits fully', () => {
    expect(
      defaultQuant([
        { label: 'Q2_K', size: 1, verdict: 'vram' },
        { label: 'Q4_K_M', size: 2, verdict: 'vram' },
        { label: 'Q8_0', size: 3, verdict: 'vram' },
        { label: 'F16', size: 4, verdict: 'partial' },
      ]),
    ).toBe('Q8_0');
  });
  it('else Q4_K_M, else the smallest', () => {
    expect(
      defaultQuant([
        { label: 'Q8_0', size: 3, verdict: 'partial' },
        { label: 'Q4_K_M', size: 2, verdict: 'too-large' },
      ]),
    ).toBe('Q4_K_M');
    expect(
      defaultQuant([
        { label: 'Q8_0', size: 3, verdict: 'too-large' },
        { label: 'Q3_K_S', size: 1, verdict: 'too-large' },
      ]),
    ).toBe('Q3_K_S');
    expect(defaultQuant([])).toBeUndefined();
  });
  it('planQuants gives a verdict per sized row and the default', () => {
    const plan = planQuants(
      [
        { label: 'Q4_K_M', size: 807_694_464 },
        { label: 'Q8_0', size: 1_321_083_200 },
        { label: 'F16', size: 2_479_595_328 },
        { label: 'Q5_K_M' },
      ],
      { ramBytes: 4 * GiB, vramBytes: 2 * GiB, unified: false },
      llama1b,
      4096,
    );
    expect(plan.rows.map((r) => r.fit?.verdict)).toEqual(['vram', 'vram', 'partial', undefined]);
    expect(plan.defaultLabel).toBe('Q8_0');
  });
});

describe('the fixture GGUF writer', () => {
  it('writes a header @huggingface/gguf parses, with the keys llama.cpp writes', async () => {
    const bytes = llama32_1bHeader('Q4_K_M');
    const fetchBytes: typeof fetch = async (_u, init) => {
      const range = /bytes=(\d+)-(\d+)/.exec(new Headers(init?.headers).get('range') ?? '');
      const part = range ? bytes.subarray(Number(range[1]), Number(range[2]) + 1) : bytes;
      return new Response(Buffer.from(part), { status: range ? 206 : 200 });
    };
    const parsed = await gguf('https://example.invalid/x.gguf', { fetch: fetchBytes, computeParametersCount: true });
    expect(parsed.metadata.version).toBe(3);
    const meta = parsed.metadata as Record<string, unknown>;
    expect(meta['general.architecture']).toBe('llama');
    expect(meta['general.file_type']).toBe(15);
    expect(meta['tokenizer.ggml.tokens']).toEqual(['!', '"', '#', '<|begin_of_text|>', '<|eot_id|>']);
    expect(headerFacts(meta, parsed.parameterCount)).toEqual({
      architecture: 'llama',
      name: 'Llama 3.2 1B Instruct',
      blockCount: 16,
      contextLength: 131072,
      embeddingLength: 2048,
      headCount: 32,
      headCountKv: 8,
      keyLength: 64,
      valueLength: 64,
    });
    expect(kvShapeFromMetadata(meta)).toEqual({ ...llama1b, architecture: 'llama' });
    expect(kvShapeFromHeader(headerFacts(meta))).toEqual({ ...llama1b, architecture: 'llama' });
  });
  it('writes tensor infos the parser counts parameters from', async () => {
    const bytes = writeGguf({ 'general.architecture': { type: 'string', value: 'llama' } }, [
      { name: 'token_embd.weight', dims: [2048, 100], type: 1 },
      { name: 'output_norm.weight', dims: [2048], type: 0 },
    ]);
    const parsed = await gguf('https://example.invalid/y.gguf', {
      fetch: async () => new Response(Buffer.from(bytes), { status: 200 }),
      computeParametersCount: true,
    });
    expect(parsed.tensorInfos.map((t) => t.name)).toEqual(['token_embd.weight', 'output_norm.weight']);
    expect(parsed.parameterCount).toBe(2048 * 100 + 2048);
  });
});
