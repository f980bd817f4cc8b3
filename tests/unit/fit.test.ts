import { gguf } from '@huggingface/gguf';
import { describe, expect, it } from 'vitest';
import {
  defaultContext,
  defaultQuant,
  defaultQuantWhy,
  estimateKvShape,
  fitHardware,
  fitQuant,
  gb,
  isQ4Class,
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
    // Decimal gigabytes, as the Hub and the size column say them: 6 GiB is 6.4 GB.
    expect(r.explanation).toMatch(/file 6\.4 GB \+ KV cache 1\.1 GB for 8,192 tokens \+ 537 MB runtime/);
    expect(r.summary).toBe('needs 8.1 GB of 8.6 GB VRAM');
  });
  it('says every size in one unit, decimal gigabytes like the Hub', () => {
    expect(gb(3.6e9)).toBe('3.6 GB');
    expect(gb(24 * GiB)).toBe('25.8 GB');
    expect(gb(250e9)).toBe('250 GB');
    const r = fitQuant(3.6e9, 0, { ramBytes: 16 * GiB, vramBytes: 0, unified: false }, 4096);
    expect(r.explanation).toMatch(/file 3\.6 GB/);
  });
  it('has a short line for the table under every verdict', () => {
    expect(fitQuant(7 * GiB, kv, gpu8, 8192).summary).toBe('needs 9.1 GB: 8.6 GB in VRAM, the rest in RAM');
    expect(fitQuant(10 * GiB, kv, cpu16, 8192).summary).toBe('needs 12.3 GB of 13.7 GB usable RAM');
    expect(fitQuant(40 * GiB, kv, gpu8, 8192).summary).toBe('needs 44.6 GB, more than 36.1 GB here');
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
  it('on a CPU-only machine is the largest Q4_K_M-class quant that fits, with why', () => {
    const all = [
      { label: 'Q2_K', size: 1, verdict: 'ram' as const },
      { label: 'IQ4_XS', size: 2, verdict: 'ram' as const },
      { label: 'Q4_K_M', size: 3, verdict: 'ram' as const },
      { label: 'Q8_0', size: 5, verdict: 'ram' as const },
      { label: 'F16', size: 9, verdict: 'ram' as const },
    ];
    expect(defaultQuant(all, { cpuOnly: true })).toBe('Q4_K_M');
    expect(defaultQuant(all)).toBe('F16');
    // Q4_K_M does not fit: the next Q4-class one down; none fits: the largest that does.
    const tight = all.map((q) => (q.size >= 3 ? { ...q, verdict: 'too-large' as const } : q));
    expect(defaultQuant(tight, { cpuOnly: true })).toBe('IQ4_XS');
    expect(
      defaultQuant(
        tight.filter((q) => q.label !== 'IQ4_XS'),
        { cpuOnly: true },
      ),
    ).toBe('Q2_K');
    expect(['Q4_K_M', 'Q4_K_S', 'IQ4_XS', 'IQ4_NL', 'Q4_0', 'Q4_1', 'UD-Q4_K_XL'].every(isQ4Class)).toBe(true);
    expect(['Q5_K_M', 'Q3_K_S', 'Q8_0', 'F16', 'BF16', 'Q2_K'].some(isQ4Class)).toBe(false);
    const cpu: FitHardware = { ramBytes: 24 * GiB, vramBytes: 0, unified: false };
    expect(defaultQuantWhy('Q4_K_M', 'ram', cpu)).toBe(
      'Q4_K_M: about 3× faster than F16 on a CPU, little quality lost',
    );
    expect(defaultQuantWhy('Q8_0', 'vram', { ...cpu, vramBytes: 8 * GiB })).toBe('The largest that fits in VRAM');
  });
  it('planQuants: a 24 GB CPU-only machine gets Q4_K_M, not F16; with a GPU the largest in VRAM', () => {
    const quants = [
      { label: 'Q4_K_M', size: 4_920_000_000 },
      { label: 'Q8_0', size: 8_540_000_000 },
      { label: 'F16', size: 16_070_000_000 },
    ];
    const cpu = planQuants(quants, { ramBytes: 24 * GiB, vramBytes: 0, unified: false }, llama1b, 4096);
    expect(cpu.rows.map((r) => r.fit?.verdict)).toEqual(['ram', 'ram', 'ram']);
    expect(cpu.defaultLabel).toBe('Q4_K_M');
    expect(cpu.defaultWhy).toMatch(/^Q4_K_M: about 3× faster than F16 on a CPU/);
    const gpu = planQuants(quants, { ramBytes: 24 * GiB, vramBytes: 12 * GiB, unified: false }, llama1b, 4096);
    expect(gpu.defaultLabel).toBe('Q8_0');
    expect(gpu.defaultWhy).toBe('The largest that fits in VRAM');
    // Apple Silicon is not CPU-only: the GPU reads the unified memory.
    const mac = planQuants(quants, { ramBytes: 24 * GiB, vramBytes: 18 * GiB, unified: true }, llama1b, 4096);
    expect(mac.defaultLabel).toBe('F16');
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
