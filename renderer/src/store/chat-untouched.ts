import { DEFAULT_CHAT_TITLE } from '@shared/chat-title';
import { api } from '../api';
import { useChat } from './chat';
import { useDocuments } from './documents';

/**
 * A conversation left as it was made: no message, nothing typed, no name, prompt, base or attachment of its own.
 * Keeping it would leave a "New chat" in the list for every visit that wrote nothing.
 */
function untouched(id: string): boolean {
  const s = useChat.getState();
  const meta = s.convs[id]?.meta ?? s.list.find((m) => m.id === id);
  if (!meta || meta.messageCount > 0 || s.convs[id]?.messages.length || s.running[id]) return false;
  if (meta.title !== DEFAULT_CHAT_TITLE || meta.system.trim() || meta.bases?.length || meta.pinned) return false;
  if (meta.importFingerprint || s.drafts[id]?.trim()) return false;
  const docs = useDocuments.getState();
  return (
    !docs.bases[id]?.some((b) => b.conversation === id) &&
    !docs.uploads.some((u) => 'conversation' in u.target && u.target.conversation === id)
  );
}

/** Deletes the conversation just left when nothing was written in it (no undo: there is nothing to bring back). */
export async function dropIfUntouched(id: string): Promise<void> {
  if (!untouched(id)) return;
  try {
    await api.call('chat.delete', { id });
  } catch {
    return; // it stays in the list: harmless
  }
  useChat.setState((s) => {
    const convs = { ...s.convs };
    delete convs[id];
    return {
      list: s.list.filter((m) => m.id !== id),
      convs,
      currentId: s.currentId === id ? undefined : s.currentId,
    };
  });
}
