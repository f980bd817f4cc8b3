import type { EngineStatus, LocalModel } from '@shared/contract/local';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';

export interface RuntimeOptions {
  log: Logger;
  keepAliveMinutes: () => number;
  /** Every part's path of a model (split GGUFs load from the first; llama.cpp finds the rest). */
  parts: (model: LocalModel) => string[];
  /**
   * CPU threads per context: this option (tests, the bench), else local.json's `threads`, else (0) llama.cpp's
   * choice. On these 2-core machines one thread is ~15× faster than two for the tiny test model.
   */
  threads?: number;
  configThreads?: () => number;
  /** `false` forces the CPU (tests); llama.cpp picks CUDA, Vulkan or Metal when it can by default. */
  gpu?: false | 'auto';
}

export interface LoadOptions {
  contextSize?: number;
  gpuLayers?: number;
}

/** A loaded model held for one use (a chat turn, an embedding call): it is not unloaded while held. */
export interface Lease {
  readonly model: LocalModel;
  /** node-llama-cpp's objects, typed loosely here so that importing this file never loads node-llama-cpp. */
  readonly handle: unknown;
  release(): void;
}

/** llama.cpp in this process, through node-llama-cpp: imported on first use, models loaded and unloaded here. */
export class LlamaRuntime {
  constructor(private readonly opts: RuntimeOptions) {}

  status(): EngineStatus {
    return { started: false, loaded: [], keepAliveMinutes: this.opts.keepAliveMinutes() };
  }

  async load(model: LocalModel, opts: LoadOptions = {}): Promise<EngineStatus> {
    void model;
    void opts;
    throw new AppError('unavailable', 'The built-in engine is not built yet.');
  }

  async unload(id?: string): Promise<EngineStatus> {
    void id;
    return this.status();
  }

  /** Re-arms the idle timers after the keep-alive setting changed. */
  keepAliveChanged(): void {}

  /** The model, loaded (with its plan) when it is not yet; held until `release`. */
  async acquire(model: LocalModel, signal?: AbortSignal): Promise<Lease> {
    void signal;
    await this.load(model);
    throw new AppError('unavailable', 'The built-in engine is not built yet.');
  }

  async embed(model: LocalModel, texts: string[]): Promise<number[][]> {
    void model;
    void texts;
    throw new AppError('unavailable', 'The built-in engine is not built yet.');
  }

  async dispose(): Promise<void> {}
}
