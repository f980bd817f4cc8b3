import type { Input, Output } from '@shared/contract';
import { api } from '../api';
import { useQuery } from './query';

/** The local Ollama server, as the Local models page uses it. */
export const localModels = {
  list: () => api.call('ollama.list', {}),
  running: () => api.call('ollama.ps', {}),
  remove: (model: string) => api.call('ollama.delete', { model }),
  copy: (source: string, destination: string) => api.call('ollama.copy', { source, destination }),
  embed: (input: Input<'ollama.embed'>): Promise<Output<'ollama.embed'>> => api.call('ollama.embed', input),
};

/** A model's details (`ollama show`): licence, parameters, template, capabilities. */
export const useModelShow = (model: string) => useQuery(() => api.call('ollama.show', { model }), [model]);

/**
 * Whether Ollama says a model can chat: it has the `completion` capability (an embedding-only model does not).
 * Undefined until it has answered, or where it cannot tell (an older Ollama lists no capabilities).
 */
export function canChat(capabilities: readonly string[] | undefined): boolean | undefined {
  return capabilities ? capabilities.includes('completion') : undefined;
}

/** canChat for `model`, asked of Ollama (`ollama show`). */
export function useCanChat(model: string): boolean | undefined {
  const show = useModelShow(model);
  return canChat(show.state === 'ok' ? show.data.capabilities : undefined);
}
