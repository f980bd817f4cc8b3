import { availableParallelism } from 'node:os';

/**
 * CPU threads per context when the user has not chosen: llama.cpp's own count (its math cores: the performance
 * cores, one per physical core) but never every core, so the window, the web server and the local server keep one
 * while llama.cpp's threads spin. Measured on the 2-core machines here (`node bench/index.mjs --only threads`): the
 * tiny test model decoded at ~2,500 tokens/s with 1 thread, ~20–50 with 2 and ~1 with node-llama-cpp's own count,
 * beside a streaming window or not: a thread that must wait for a busy core stalls the others at every step.
 */
export function defaultThreads(mathCores?: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(mathCores ?? cores, cores - 1));
}
