import type { LoadPlan } from '@shared/contract/local-models';
import {
  defaultContext,
  estimateKvShape,
  fitQuant,
  kvCacheBytes,
  RUNTIME_OVERHEAD,
  type FitHardware,
  type FitResult,
} from '@shared/fit';
import type { GgufFacts } from './gguf-facts';

/** The longest context proposed by default: longer ones cost KV memory few chats use (the user may ask for more). */
const MAX_DEFAULT_CONTEXT = 8192;
const MIN_CONTEXT = 512;
/** Parallel requests proposed at most (LM Studio serves 4 at once by default). */
const MAX_SEQUENCES = 4;

/**
 * The context and GPU layers to load a model with on this machine. The context is the model's trained length (at
 * most 8192), halved down to 512 while a shorter one would change the verdict: a long context never pushes a model
 * out of VRAM or RAM. Layers: none without a GPU, all when the whole fits in VRAM, else the share VRAM holds.
 */
export function loadPlan(facts: GgufFacts, sizeBytes: number, hw: FitHardware | undefined): LoadPlan {
  const maxContext = facts.contextLength;
  const shape = facts.shape ?? estimateKvShape(facts.parameterCount, maxContext);
  const layers = facts.layers ?? shape.layers;
  const top = Math.min(maxContext ?? MAX_DEFAULT_CONTEXT, MAX_DEFAULT_CONTEXT);
  if (!hw) return { contextSize: defaultContext(top), maxContext, gpuLayers: 0, layers, sequences: 1 };

  const tries = [top];
  for (let c = 4096; c >= MIN_CONTEXT; c /= 2) if (c < top) tries.push(c);
  const fits = tries.map((ctx) => ({ ctx, fit: fitQuant(sizeBytes, kvCacheBytes(shape, ctx), hw, ctx, shape) }));
  const best = fits[fits.length - 1].fit.verdict;
  const { ctx, fit } = fits.find((f) => f.fit.verdict === best)!;
  // Each parallel sequence has a KV cache of its own: as many as keep the verdict the context was chosen for.
  let sequences = 1;
  while (
    best !== 'too-large' &&
    sequences < MAX_SEQUENCES &&
    fitQuant(sizeBytes, kvCacheBytes(shape, ctx) * (sequences + 1), hw, ctx, shape).verdict === best
  )
    sequences++;
  // The verdict and its figure for what the plan loads: every sequence's KV cache, not one.
  const all = fitQuant(sizeBytes, kvCacheBytes(shape, ctx) * sequences, hw, ctx, shape, sequences);
  return {
    contextSize: ctx,
    maxContext,
    gpuLayers: gpuLayers(fit, hw, layers),
    layers,
    sequences,
    verdict: all.verdict,
    explanation: all.explanation,
    memory: { fileBytes: all.fileBytes, kvBytes: all.kvBytes, runtimeBytes: all.overheadBytes },
  };
}

function gpuLayers(fit: FitResult, hw: FitHardware, layers: number): number {
  if (hw.vramBytes <= 0) return 0;
  if (fit.verdict === 'vram') return layers;
  if (fit.verdict !== 'partial') return 0;
  // The layers' share of weights + KV cache that VRAM holds once the runtime's own allowance is set aside.
  const share = Math.max(0, hw.vramBytes - RUNTIME_OVERHEAD) / (fit.fileBytes + fit.kvBytes);
  return Math.max(0, Math.min(layers - 1, Math.floor(layers * share)));
}
