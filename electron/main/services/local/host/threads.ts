import { availableParallelism } from 'node:os';

/**
 * CPU threads per context when the user has not chosen: llama.cpp's own count (its math cores: the performance
 * cores, one per physical core) but never every core, so the window, the web server and the local server keep one
 * while llama.cpp's threads spin. With every core, the 2-core machines measured here decoded the tiny test model at a
 * few tokens/s beside a streaming window, against thousands with one thread (`node bench/index.mjs --only threads`).
 */
export function defaultThreads(mathCores?: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(mathCores ?? cores, cores - 1));
}
