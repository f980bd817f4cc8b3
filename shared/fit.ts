// Does a GGUF quantization run on this machine? Pure arithmetic shared by the model page and the CLI.
import type { GgufHeader, Hardware } from './contract/hardware';
import { formatBytes } from './format-bytes';

export const GiB = 1024 ** 3;

/** The attention shape the KV cache depends on, from a GGUF header (or estimated when the header is unknown). */
export interface KvShape {
  architecture?: string;
  /** `<arch>.block_count`. */
  layers: number;
  /** `<arch>.attention.head_count_kv` (falls back to head_count: no grouped-query attention). */
  kvHeads: number;
  /** `<arch>.attention.key_length`, else embedding_length / head_count. */
  keyLength: number;
  /** `<arch>.attention.value_length`, else the key length. */
  valueLength: number;
  /** `<arch>.context_length`: the longest context the model was trained for. */
  contextLength?: number;
  /** Where the shape came from: the file's own header, or a guess from the Hub's parameter count. */
  source: 'header' | 'estimate';
}

/** What the memory budget is made of (after the Settings override, when there is one). */
export interface FitHardware {
  /** Total system RAM in bytes. */
  ramBytes: number;
  /** Dedicated VRAM of the largest GPU, or the unified memory the GPU may use (Apple Silicon); 0 without a GPU. */
  vramBytes: number;
  /** Apple Silicon: CPU and GPU share one memory, so "partial offload" does not apply. */
  unified: boolean;
}

type Verdict = 'vram' | 'partial' | 'ram' | 'too-large';

export interface FitResult {
  verdict: Verdict;
  /** Weights + KV cache + runtime overhead. */
  needBytes: number;
  fileBytes: number;
  kvBytes: number;
  overheadBytes: number;
  /** One or two plain sentences: the sum, the budget it was compared with, and any estimate used. */
  explanation: string;
  /** The short line the table shows under the badge: `needs 5.1 GB of 19.2 GB RAM`. */
  summary: string;
}

/** Compute buffers and the runtime itself (llama.cpp / Ollama): a fixed half gigabyte is a fair allowance. */
export const RUNTIME_OVERHEAD = 0.5 * GiB;
/** The OS and other programs keep part of the RAM: a model may use this share of it. */
const RAM_USABLE_SHARE = 0.8;
const DEFAULT_CONTEXT = 4096;
export const FALLBACK_QUANT = 'Q4_K_M';

type Meta = Record<string, unknown>;

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  if (typeof v === 'bigint' && v > 0n) return Number(v);
  return undefined;
}

/** The KV shape from a GGUF header's metadata (keys as llama.cpp writes them), or undefined when keys are missing. */
export function kvShapeFromMetadata(meta: Meta): KvShape | undefined {
  const arch = typeof meta['general.architecture'] === 'string' ? meta['general.architecture'] : undefined;
  if (!arch) return undefined;
  const k = (name: string) => meta[`${arch}.${name}`];
  const layers = num(k('block_count'));
  const embedding = num(k('embedding_length'));
  // head_count may be an array (one per layer) in some models: take the largest.
  const many = (v: unknown) => (Array.isArray(v) ? Math.max(0, ...v.map((x) => num(x) ?? 0)) || undefined : num(v));
  const heads = many(k('attention.head_count'));
  const kvHeads = many(k('attention.head_count_kv')) ?? heads;
  const keyLength = num(k('attention.key_length')) ?? (embedding && heads ? embedding / heads : undefined);
  if (!layers || !kvHeads || !keyLength) return undefined;
  return {
    architecture: arch,
    layers,
    kvHeads,
    keyLength,
    valueLength: num(k('attention.value_length')) ?? keyLength,
    contextLength: num(k('context_length')),
    source: 'header',
  };
}

/**
 * A cautious guess when the header cannot be read: from the Hub's parameter count, a Llama-like shape with grouped-
 * query attention (head dim 128, 8 KV heads) and the layer count of models of that size. It errs on the large side.
 */
export function estimateKvShape(parameters: number | undefined, contextLength?: number): KvShape {
  const b = Math.max(0.1, (parameters ?? 7e9) / 1e9);
  const layers = Math.round(Math.min(128, Math.max(16, 18 * Math.cbrt(b) + 2)));
  return { layers, kvHeads: 8, keyLength: 128, valueLength: 128, contextLength, source: 'estimate' };
}

/** KV cache bytes for `ctx` tokens: layers × ctx × kv_heads × (key + value length) × bytes per element (f16 = 2). */
export function kvCacheBytes(shape: KvShape, ctx: number, bytesPerElement = 2): number {
  return shape.layers * ctx * shape.kvHeads * (shape.keyLength + shape.valueLength) * bytesPerElement;
}

/** The context the user gets by default: 4096, or the model's maximum if smaller. */
export function defaultContext(max?: number): number {
  return max && max < DEFAULT_CONTEXT ? max : DEFAULT_CONTEXT;
}

/**
 * Memory sizes as the fit texts say them: decimal gigabytes like the Hub and the size column (formatBytes), one
 * decimal under 100 GB: `7.6 GB`, `25.8 GB`. One unit everywhere, so the same file never reads as two sizes.
 */
export const gb = (n: number) => `${(n / 1e9).toFixed(n < 99.95e9 ? 1 : 0)} GB`;

export const verdictLabels: Record<Verdict, string> = {
  vram: 'Fits in VRAM',
  partial: 'Partial offload',
  ram: 'Fits in RAM (CPU)',
  'too-large': 'Too large',
};

/**
 * The verdict for one file: compared with VRAM first, then VRAM + usable RAM (partial offload), then RAM alone.
 * `sequences`: requests answered at once, each with a KV cache of `ctx` tokens (`kvBytes` counts them all).
 */
export function fitQuant(
  fileBytes: number,
  kvBytes: number,
  hw: FitHardware,
  ctx: number,
  shape?: KvShape,
  sequences = 1,
): FitResult {
  const overheadBytes = RUNTIME_OVERHEAD;
  const needBytes = fileBytes + kvBytes + overheadBytes;
  const ramBudget = hw.ramBytes * RAM_USABLE_SHARE;
  const need = `needs ${gb(needBytes)}`;
  let verdict: Verdict;
  let budget: string;
  let summary: string;
  if (hw.vramBytes > 0 && needBytes <= hw.vramBytes) {
    verdict = 'vram';
    budget = `${gb(hw.vramBytes)} of ${hw.unified ? 'GPU-usable unified memory' : 'VRAM'}`;
    summary = `${need} of ${gb(hw.vramBytes)} ${hw.unified ? 'unified memory' : 'VRAM'}`;
  } else if (hw.vramBytes > 0 && !hw.unified && needBytes <= hw.vramBytes + ramBudget) {
    verdict = 'partial';
    budget = `${gb(hw.vramBytes)} VRAM: the rest of the layers run on the CPU from RAM`;
    summary = `${need}: ${gb(hw.vramBytes)} in VRAM, the rest in RAM`;
  } else if (needBytes <= ramBudget) {
    verdict = 'ram';
    budget = `${gb(ramBudget)} usable of ${gb(hw.ramBytes)} RAM${hw.vramBytes > 0 ? '' : ' (no GPU found)'}`;
    summary = `${need} of ${gb(ramBudget)} usable RAM`;
  } else {
    verdict = 'too-large';
    budget = `${gb(hw.vramBytes)} VRAM + ${gb(ramBudget)} usable RAM`;
    summary = `${need}, more than ${gb(hw.vramBytes + ramBudget)} here`;
  }
  const kvWhy =
    shape?.source === 'estimate'
      ? ' The KV cache is estimated from the parameter count (the GGUF header could not be read).'
      : shape
        ? ` KV cache from the GGUF header: ${shape.layers} layers × ${shape.kvHeads} KV heads × ${shape.keyLength + shape.valueLength} (key + value) × f16.`
        : '';
  const explanation =
    `${verdictLabels[verdict]}: needs about ${gb(needBytes)} = file ${formatBytes(fileBytes)} + KV cache ` +
    `${formatBytes(kvBytes)} for ${ctx.toLocaleString('en')} tokens${sequences > 1 ? ` × ${sequences} requests at once` : ''} + ${formatBytes(overheadBytes)} runtime; ` +
    `compared with ${budget}.${kvWhy}`;
  return { verdict, needBytes, fileBytes, kvBytes, overheadBytes, explanation, summary };
}

/** A model's memory as the fit counts it, in its three labelled parts (the load plan carries it). */
export interface MemoryParts {
  fileBytes: number;
  /** Every sequence's KV cache for the context. */
  kvBytes: number;
  runtimeBytes: number;
}

export const memoryTotal = (m: MemoryParts) => m.fileBytes + m.kvBytes + m.runtimeBytes;

/**
 * The one figure a model's memory is shown as (fit verdict, engine card, Compare), with what it counts:
 * `about 1.0 GB (file 475 KB + KV cache 34 MB + runtime 537 MB)`.
 */
export function memoryLine(m: MemoryParts): string {
  return `about ${formatBytes(memoryTotal(m))} (file ${formatBytes(m.fileBytes)} + KV cache ${formatBytes(m.kvBytes)} + runtime ${formatBytes(m.runtimeBytes)})`;
}

/**
 * The parts for other settings: the KV cache grows with the tokens it holds (context × sequences), the file and the
 * runtime do not. `planTokens`: the tokens the parts were counted for.
 */
export function memoryForTokens(m: MemoryParts, planTokens: number, tokens: number): MemoryParts {
  return { ...m, kvBytes: Math.round((m.kvBytes / Math.max(1, planTokens)) * tokens) };
}

/** True when the quant runs without splitting between GPU and CPU (in VRAM, or in RAM on a machine without GPU). */
const fitsFully = (v: Verdict) => v === 'vram' || v === 'ram';

/** No GPU to offload to (Apple's unified memory counts as one): the CPU's speed, more than memory, decides. */
export const cpuOnly = (hw: FitHardware) => hw.vramBytes === 0 && !hw.unified;

/** Q4_K_M-class: the 4-bit K-quants, i-quants and legacy quants, Unsloth's `UD-` variants too. */
export const isQ4Class = (label: string) => /^(UD-)?I?Q4(_|$)/i.test(label);

type QuantChoice = { label: string; size?: number; verdict?: Verdict };

function largest(quants: QuantChoice[]): QuantChoice | undefined {
  let best: QuantChoice | undefined;
  for (const q of quants) if (!best || q.size! > best.size!) best = q;
  return best;
}

/**
 * The default quantization: the largest file that fits fully — on a CPU-only machine the largest Q4_K_M-class one
 * that fits (a CPU reads every weight per token, so a 4-bit file answers several times faster than F16 or Q8_0);
 * else Q4_K_M when the repo has it; else the smallest. Quants without a known size never win on size.
 */
export function defaultQuant(quants: QuantChoice[], opts: { cpuOnly?: boolean } = {}): string | undefined {
  const fitting = quants.filter((q) => q.size !== undefined && q.verdict && fitsFully(q.verdict));
  const best = (opts.cpuOnly && largest(fitting.filter((q) => isQ4Class(q.label)))) || largest(fitting);
  if (best) return best.label;
  if (quants.some((q) => q.label === FALLBACK_QUANT)) return FALLBACK_QUANT;
  const sized = quants.filter((q) => q.size !== undefined).sort((a, b) => a.size! - b.size!);
  return (sized[0] ?? quants[0])?.label;
}

/** One line on why the default was picked, shown beside its badge. */
export function defaultQuantWhy(label: string, verdict: Verdict | undefined, hw: FitHardware): string {
  if (verdict === 'vram') return `The largest that fits in ${hw.unified ? 'GPU-usable unified memory' : 'VRAM'}`;
  if (verdict === 'ram' && cpuOnly(hw) && isQ4Class(label))
    return `${label}: about 3× faster than F16 on a CPU, little quality lost`;
  if (verdict === 'ram') return 'The largest that fits in RAM';
  return label === FALLBACK_QUANT
    ? 'Nothing fits fully: Q4_K_M is the usual choice'
    : 'Nothing fits fully: the smallest';
}

/** Verdicts for every quant, the default and why, in one call (the page and the CLI both use it). */
export function planQuants<Q extends { label: string; size?: number }>(
  quants: Q[],
  hw: FitHardware,
  shape: KvShape,
  ctx: number,
): { rows: (Q & { fit?: FitResult })[]; defaultLabel?: string; defaultWhy?: string } {
  const kv = kvCacheBytes(shape, ctx);
  const rows: (Q & { fit?: FitResult })[] = quants.map((q) =>
    q.size === undefined ? { ...q } : { ...q, fit: fitQuant(q.size, kv, hw, ctx, shape) },
  );
  const defaultLabel = defaultQuant(
    rows.map((r) => ({ label: r.label, size: r.size, verdict: r.fit?.verdict })),
    { cpuOnly: cpuOnly(hw) },
  );
  const verdict = rows.find((r) => r.label === defaultLabel)?.fit?.verdict;
  return { rows, defaultLabel, defaultWhy: defaultLabel && defaultQuantWhy(defaultLabel, verdict, hw) };
}

/** The budget the verdicts compare with: the largest GPU's VRAM (llama.cpp fills one GPU first) and the RAM. */
export function fitHardware(h: Hardware): FitHardware {
  const vram = h.gpus.reduce((m, g) => Math.max(m, g.vramTotal), 0);
  return { ramBytes: h.ramTotal, vramBytes: vram, unified: h.unified };
}

/** The KV shape from the header facts main reads (`hub.ggufHeader`). */
export function kvShapeFromHeader(h: GgufHeader): KvShape | undefined {
  const a = h.architecture ?? 'x';
  return kvShapeFromMetadata({
    'general.architecture': a,
    [`${a}.block_count`]: h.blockCount,
    [`${a}.context_length`]: h.contextLength,
    [`${a}.embedding_length`]: h.embeddingLength,
    [`${a}.attention.head_count`]: h.headCount,
    [`${a}.attention.head_count_kv`]: h.headCountKv,
    [`${a}.attention.key_length`]: h.keyLength,
    [`${a}.attention.value_length`]: h.valueLength,
  });
}

/** The shape the verdicts use: the header's when it was read, else the estimate from the Hub's `gguf` fields. */
export function kvShapeFor(
  header: GgufHeader | undefined,
  hubGguf: { total?: number; context_length?: number } | undefined,
): KvShape {
  return (
    (header && kvShapeFromHeader(header)) ??
    estimateKvShape(header?.parameterCount ?? hubGguf?.total, header?.contextLength ?? hubGguf?.context_length)
  );
}
