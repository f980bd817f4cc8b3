import type { LocalModel } from '@shared/contract/local';
import { AppError } from '@shared/errors';
import type { LlamaRuntime } from '../local/runtime/runtime';
import type { ChatEngine, TurnRequest, TurnResult, TurnSink } from './types';

/** What the built-in engine needs of the local service: a usable model by id, and the runtime that runs it. */
export interface LocalPort {
  model(id: string): Promise<LocalModel>;
  readonly runtime: LlamaRuntime;
}

/** Replies from the built-in llama.cpp engine: the GGUF's own chat template, node-llama-cpp's function calling. */
export class LocalEngine implements ChatEngine {
  readonly backend = 'local' as const;
  readonly toolHistoryWithoutTools = true;

  constructor(private readonly local: LocalPort) {}

  async turn(req: TurnRequest, sink: TurnSink): Promise<TurnResult> {
    void req;
    void sink;
    void this.local;
    throw new AppError('unavailable', 'The built-in engine is not built yet.');
  }

  async capabilities(model: string): Promise<string[]> {
    void model;
    return ['completion'];
  }

  async toolsUnsupported(model: string): Promise<string | undefined> {
    void model;
    return undefined;
  }
}
