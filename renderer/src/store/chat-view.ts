import type { ChatMessage } from '@shared/contract/chat-message';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { Output } from '@shared/contract';
import { api } from '../api';

/** A loaded Ollama model that can chat, as a new chat's model when there is nothing else to go by. */
export async function runningChatModel(): Promise<
  Pick<ConversationMeta, 'backend' | 'model' | 'provider'> | undefined
> {
  try {
    const m = (await api.call('chat.models', {})).models.find((x) => x.running);
    return m && { backend: 'ollama', model: m.name, provider: 'auto' };
  } catch {
    return undefined; // Ollama down: the chat starts without a model; the user picks one later.
  }
}

export const upsert = (list: ChatMessage[], m: ChatMessage): ChatMessage[] => {
  const i = list.findIndex((x) => x.id === m.id);
  if (i < 0) return [...list, m];
  const next = list.slice();
  next[i] = m;
  return next;
};

/** What a conversation view (chat.get, chat.selectVersion) sets: it replaces the window shown. */
export const view = (r: Output<'chat.get'>) => ({
  meta: r.meta,
  messages: r.messages,
  versions: r.versions,
  hasOlder: r.hasOlder,
  hasNewer: r.hasNewer,
  paging: undefined,
});
