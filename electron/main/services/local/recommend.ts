import type { LocalModel, Recommendation } from '@shared/contract/local-models';
import { cpuOnly, fitQuant, gb, GiB, kvCacheBytes, verdictLabels, type FitHardware, type KvShape } from '@shared/fit';

interface Pick {
  repo: string;
  file: string;
  title: string;
  sizeBytes: number;
  /** The attention shape from the file's header, for the KV cache at the recommended context. */
  shape: KvShape;
}

const shape = (layers: number, kvHeads: number, headDim: number): KvShape => ({
  layers,
  kvHeads,
  keyLength: headDim,
  valueLength: headDim,
  source: 'header',
});

/** Small chat GGUFs at Q4_K_M (a sensible CPU default), smallest first; sizes as the Hub lists them. */
export const PICKS: Pick[] = [
  {
    repo: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    title: 'Qwen2.5 0.5B Instruct',
    sizeBytes: 491_400_032,
    shape: shape(24, 2, 64),
  },
  {
    repo: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    title: 'Llama 3.2 1B Instruct',
    sizeBytes: 807_694_464,
    shape: shape(16, 8, 64),
  },
  {
    repo: 'bartowski/Llama-3.2-3B-Instruct-GGUF',
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    title: 'Llama 3.2 3B Instruct',
    sizeBytes: 2_019_377_696,
    shape: shape(28, 8, 128),
  },
  {
    repo: 'bartowski/Qwen2.5-7B-Instruct-GGUF',
    file: 'Qwen2.5-7B-Instruct-Q4_K_M.gguf',
    title: 'Qwen2.5 7B Instruct',
    sizeBytes: 4_683_073_184,
    shape: shape(28, 4, 128),
  },
];

const CONTEXT = 4096;
/**
 * Without a GPU, tokens come from the CPU at roughly memory bandwidth ÷ file size: a 7B Q4 answers at a few words a
 * second on a laptop. The CPU pick stops at 3B, which stays readable as it streams.
 */
const CPU_MAX_BYTES = 2.5 * GiB;
const FALLBACK = PICKS[1];

function machine(hw: FitHardware): string {
  const gpu = hw.unified ? 'unified memory' : hw.vramBytes > 0 ? `a GPU with ${gb(hw.vramBytes)} VRAM` : 'no GPU';
  return `${gb(hw.ramBytes)} RAM, ${gpu}`;
}

/** The GGUF offered when nothing local is set up: the largest of a short list that fits this machine. */
export function recommend(hw: FitHardware | undefined, models: LocalModel[]): Recommendation | undefined {
  let pick = FALLBACK;
  let why = 'A small model that runs on most computers (HubDesk could not read this machine’s memory).';
  if (hw) {
    const fits = PICKS.map((p) => ({
      p,
      verdict: fitQuant(p.sizeBytes, kvCacheBytes(p.shape, CONTEXT), hw, CONTEXT, p.shape).verdict,
    }));
    const cpu = cpuOnly(hw);
    const full = fits.filter(
      (f) => f.verdict === 'vram' || (f.verdict === 'ram' && (!cpu || f.p.sizeBytes <= CPU_MAX_BYTES)),
    );
    const chosen = full[full.length - 1] ?? fits[0];
    pick = chosen.p;
    const capped = cpu && full.length < fits.filter((f) => f.verdict === 'ram').length;
    why = full.length
      ? `${verdictLabels[chosen.verdict]} on this machine: ${machine(hw)}.${capped ? ' Larger models answer slowly without a GPU.' : ''}`
      : `The smallest suggested model; even it is tight on this machine: ${machine(hw)}.`;
  }
  const id = `${pick.repo}/${pick.file}`.toLowerCase();
  const onDisk = models.find((m) => !m.problem && m.id.toLowerCase() === id);
  return {
    repo: pick.repo,
    file: pick.file,
    quant: 'Q4_K_M',
    sizeBytes: pick.sizeBytes,
    title: pick.title,
    why,
    modelId: onDisk?.id,
  };
}
