import type { ConversationMeta } from '@shared/contract/chat';
import { useEndpointList } from '../../hooks/endpoints';
import { endpointLabel } from '../../lib/endpoint-presets';

type Meta = Pick<ConversationMeta, 'backend' | 'provider' | 'endpoint'>;

/** The model as a conversation's header names it: a local model by its file name, not its whole path or id. */
export const shownModel = (meta: Pick<ConversationMeta, 'backend' | 'model'>): string =>
  meta.backend === 'local' ? (meta.model.split(/[\\/]/).at(-1) ?? meta.model).replace(/\.gguf$/i, '') : meta.model;

/** The engine a conversation's replies come from, by name: "Ollama", "HF router · auto", "llama.cpp — my box". */
export function useEngineName(meta: Meta): { name: string; where: string } {
  const endpoints = useEndpointList(meta.backend === 'endpoint');
  if (meta.backend === 'ollama') return { name: 'Ollama', where: 'Replies come from your local Ollama server.' };
  if (meta.backend === 'local')
    return { name: 'Built-in engine', where: 'Replies come from llama.cpp inside HubDesk.' };
  if (meta.backend === 'provider')
    return {
      name: `HF router · ${meta.provider}`,
      where: 'Replies come from a hosted model through the Hugging Face inference router.',
    };
  const e = endpoints?.find((x) => x.id === meta.endpoint);
  if (!e)
    return {
      name: endpoints ? 'removed endpoint' : 'endpoint',
      where: 'Replies come from an OpenAI-compatible server.',
    };
  return {
    name: endpointLabel(e),
    where: `Replies come from ${e.name}, the OpenAI-compatible server at ${e.baseUrl}.`,
  };
}
