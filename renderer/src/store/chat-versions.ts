import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import type { ChatKit, ChatState } from './chat-state';
import { view } from './chat-view';

/** A message's versions: editing one (a new version), switching between them, and opening one a search found. */
export function versionActions({
  set,
  get,
  patchConv,
  refreshMeta,
  reload,
}: ChatKit): Pick<ChatState, 'editOnly' | 'selectVersion' | 'focusMessage'> {
  return {
    focusMessage: async (convId, messageId) => {
      set({ focus: { convId, messageId } });
      // Once the conversation is open: a hit before the messages shown widens the window back to it; a hit in
      // another version switches to that version.
      const c = get().convs[convId];
      if (!c || c.loading || !c.messages.length || c.messages.some((m) => m.id === messageId)) return;
      try {
        const r = await api.call('chat.get', { id: convId, around: messageId });
        if (r.messages.some((m) => m.id === messageId)) {
          if (!get().running[convId]) patchConv(convId, () => view(r));
          return;
        }
      } catch {
        /* selectVersion below reports what is wrong */
      }
      await get().selectVersion(convId, messageId);
    },

    editOnly: async (id, messageId, content) => {
      // A new version of the question, not answered yet: the conversation now ends there.
      const m = await api.call('chat.edit', { id, messageId, content });
      patchConv(id, (c) => {
        const i = c.messages.findIndex((x) => x.id === messageId);
        return i < 0 ? {} : { messages: [...c.messages.slice(0, i), m], hasNewer: false };
      });
      await reload(id, m.id);
      // The sidebar's count follows: the conversation now ends at the saved question.
      const meta = get().convs[id]?.meta;
      if (meta) refreshMeta(meta);
    },

    selectVersion: async (id, messageId) => {
      try {
        const r = await api.call('chat.selectVersion', { id, messageId });
        patchConv(id, () => view(r));
      } catch (e) {
        set((s) => ({ replyError: { ...s.replyError, [id]: e as AppErrorShape } }));
      }
    },
  };
}
