import type { LocalServerStatus } from '@shared/contract/local';
import type { Logger } from '../../log';
import type { LocalConfigStore } from '../config';
import type { LocalLibrary } from '../disk/library';
import type { LlamaRuntime } from '../runtime/runtime';

export interface LocalServerOptions {
  config: LocalConfigStore;
  library: LocalLibrary;
  runtime: LlamaRuntime;
  log: Logger;
}

/** The OpenAI-compatible server over the built-in engine: off by default, 127.0.0.1 only, a key on every request. */
export class LocalServer {
  constructor(private readonly opts: LocalServerOptions) {}

  status(): LocalServerStatus {
    const { server } = this.opts.config.get();
    const key = this.opts.config.key();
    return { enabled: server.enabled, running: false, port: server.port, keySet: !!key.value, keySource: key.source };
  }

  /** Starts or stops it to match the config (at launch, and after each change). */
  async apply(): Promise<LocalServerStatus> {
    return this.status();
  }

  async dispose(): Promise<void> {}
}
