import { open } from 'node:fs/promises';
import { GGMLFileQuantizationType, parseGGUFQuantLabel } from '@huggingface/tasks';
import { kvShapeFromMetadata, type KvShape } from '@shared/fit';

/** What a local GGUF's header says, as far as the library and the load plan need it. */
export interface GgufFacts {
  architecture?: string;
  /** `general.name`. */
  title?: string;
  /** From `general.file_type`. */
  fileQuant?: string;
  contextLength?: number;
  layers?: number;
  shape?: KvShape;
  parameterCount?: number;
  embedding: boolean;
  /** A classification head or the rank pooling type: scores (query, document) pairs, never writes or embeds. */
  reranker?: boolean;
}

export type HeaderRead = { facts: GgufFacts; problem?: undefined } | { problem: string; facts?: undefined };

/** Architectures llama.cpp runs as embedding models only (BERT-like encoders). */
const EMBEDDING_ARCHS = new Set([
  'bert',
  'nomic-bert',
  'nomic-bert-moe',
  'jina-bert-v2',
  'jina-bert-v3',
  'modern-bert',
  'neo-bert',
  'gemma-embedding',
  't5encoder',
]);

/** llama.cpp's LLAMA_POOLING_TYPE_RANK: the header of a reranker (bge-reranker, jina-reranker, Qwen3-Reranker). */
const POOLING_RANK = 4;

/** Block size (elements) and its bytes for the GGML tensor types seen in practice; others are checked by offset. */
const TYPE_BLOCKS: Record<number, [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  30: [1, 2], // BF16
};

const num = (v: unknown): number | undefined =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** The quant label a file name carries (`…-Q4_K_M.gguf`), as the Hub's quant list reads it. */
export function quantFromName(fileName: string): string | undefined {
  return parseGGUFQuantLabel(fileName);
}

function quantFromFileType(v: unknown): string | undefined {
  let n = num(v);
  if (n === undefined) return undefined;
  if (n >= 1024) n -= 1024; // llama.cpp's "guessed" flag
  const name = (GGMLFileQuantizationType as unknown as Record<number, string | undefined>)[n];
  return typeof name === 'string' ? name : undefined;
}

async function magic(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(buf, 0, 4, 0);
    return buf.subarray(0, bytesRead).toString('latin1');
  } finally {
    await fh.close();
  }
}

const NOT_GGUF = 'not a GGUF file (it does not start with "GGUF")';
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/**
 * Reads a GGUF's header (not its weights) and checks the file holds all the tensor data the header declares.
 * @huggingface/gguf reads a header cut short as zeros rather than failing, hence the explicit length checks.
 */
async function readGgufHeader(path: string, size: number): Promise<HeaderRead> {
  // Shorter than the magic: known without opening it (a folder of thousands of empty files scans fast).
  if (size < 4) return { problem: NOT_GGUF };
  let head: string;
  try {
    head = await magic(path);
  } catch (e) {
    return { problem: `it cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (head !== 'GGUF') return { problem: NOT_GGUF };
  let parsed;
  try {
    // Loaded on first use: nothing at start-up needs the parser.
    const { gguf } = await import('@huggingface/gguf');
    parsed = await gguf(path, { allowLocalFile: true, computeParametersCount: true });
  } catch (e) {
    return { problem: `its GGUF header cannot be read (${(e as Error).message}); download it again` };
  }
  const headerEnd = Math.max(parsed.tensorInfoByteRange[1], Number(parsed.tensorDataOffset));
  let dataEnd = headerEnd;
  for (const t of parsed.tensorInfos) {
    if (!t.name) return { problem: 'its GGUF header is cut short (the file is truncated); download it again' };
    const block = TYPE_BLOCKS[t.dtype];
    const elements = t.shape.reduce((a, d) => a * Number(d), 1);
    const bytes = block ? Math.ceil(elements / block[0]) * block[1] : 0;
    dataEnd = Math.max(dataEnd, Number(parsed.tensorDataOffset) + Number(t.offset) + bytes);
  }
  if (size < dataEnd)
    return {
      problem: `the file is truncated: ${mb(size)} of at least ${mb(dataEnd)} the header declares; download it again`,
    };
  const meta = parsed.metadata as Record<string, unknown>;
  const arch = typeof meta['general.architecture'] === 'string' ? meta['general.architecture'] : undefined;
  const shape = kvShapeFromMetadata(meta);
  // As node-llama-cpp's `supportsRanking` sees one: a classification head's tensor; or the rank pooling type.
  const reranker =
    parsed.tensorInfos.some((t) => t.name === 'cls.weight' || t.name === 'cls.output.weight') ||
    (!!arch && num(meta[`${arch}.pooling_type`]) === POOLING_RANK);
  return {
    facts: {
      architecture: arch,
      title: typeof meta['general.name'] === 'string' ? meta['general.name'] : undefined,
      fileQuant: quantFromFileType(meta['general.file_type']),
      contextLength: arch ? num(meta[`${arch}.context_length`]) : undefined,
      layers: arch ? num(meta[`${arch}.block_count`]) : undefined,
      shape,
      parameterCount: parsed.parameterCount > 0 ? parsed.parameterCount : undefined,
      embedding: !reranker && !!arch && (EMBEDDING_ARCHS.has(arch) || `${arch}.pooling_type` in meta),
      ...(reranker ? { reranker } : {}),
    },
  };
}

/** Header reads kept by (path, size, mtime): a rescan reads only files that changed. */
export class HeaderCache {
  private entries = new Map<string, { size: number; mtimeMs: number; read: HeaderRead }>();

  async read(path: string, size: number, mtimeMs: number): Promise<HeaderRead> {
    const hit = this.entries.get(path);
    if (hit && hit.size === size && hit.mtimeMs === mtimeMs) return hit.read;
    const read = await readGgufHeader(path, size);
    this.entries.set(path, { size, mtimeMs, read });
    return read;
  }

  /** Drops entries for files no longer found. */
  keepOnly(paths: Set<string>): void {
    for (const p of this.entries.keys()) if (!paths.has(p)) this.entries.delete(p);
  }
}
