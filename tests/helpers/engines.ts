import { Engines } from '../../electron/main/services/engines/registry';
import type { Logger } from '../../electron/main/services/log';
import type { OllamaService } from '../../electron/main/services/ollama/service';

/** The engines with Ollama alone (no router token, no endpoints, no built-in engine): for Documents' embedder. */
export function ollamaEngines(ollama: OllamaService, log: Logger): Engines {
  return new Engines({
    ollama,
    log,
    router: () => ({ routerUrl: 'http://127.0.0.1:9', billTo: '' }),
    hfToken: () => undefined,
    routerFetch: fetch,
  });
}
