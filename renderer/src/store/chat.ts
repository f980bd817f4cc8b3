import { create } from 'zustand';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { rememberOpen } from './chat-last';
import { mergeList } from './chat-list';
import { libraryActions } from './chat-library';
import { replyActions } from './chat-reply';
import type { ChatKit, ChatState, ConvData } from './chat-state';
import { versionActions } from './chat-versions';
import { view } from './chat-view';

export { conversationToReopen } from './chat-last';
export { liveText } from './live-text';
export type { PageDir } from './chat-state';

/**
 * The chat screen's state: the list (chat-library), the open conversations' windows (here), replies being written
 * (chat-reply) and message versions (chat-versions), one store so each part sees the others.
 */
export const useChat = create<ChatState>((set, get) => {
  const patchConv: ChatKit['patchConv'] = (id, fn) =>
    set((s) => {
      const c = s.convs[id] ?? { messages: [], loading: false };
      return { convs: { ...s.convs, [id]: { ...c, ...fn(c) } } };
    });

  const refreshMeta: ChatKit['refreshMeta'] = (meta) =>
    set((s) => ({
      list: mergeList(s.list, [meta], s.listNext),
      convs: s.convs[meta.id] ? { ...s.convs, [meta.id]: { ...s.convs[meta.id], meta } } : s.convs,
    }));

  const reload: ChatKit['reload'] = async (id, around) => {
    try {
      const r = await api.call('chat.get', around ? { id, around } : { id });
      // A reply started meanwhile shows its own messages: this older answer does not replace them.
      if (!get().running[id]) patchConv(id, () => view(r));
    } catch {
      /* the window shown stays; opening the conversation again reads it afresh */
    }
  };

  const kit: ChatKit = { set, get, patchConv, refreshMeta, reload };

  return {
    list: [],
    listLoading: true,
    query: '',
    results: [],
    searching: false,
    convs: {},
    running: {},
    replyError: {},
    drafts: {},

    ...libraryActions(kit),
    ...replyActions(kit),
    ...versionActions(kit),

    open: async (id) => {
      set({ currentId: id });
      if (id) rememberOpen(id);
      if (!id || get().running[id]) return;
      patchConv(id, () => ({ loading: true, error: undefined }));
      const shown = get().convs[id]?.messages;
      try {
        const r = await api.call('chat.get', { id });
        // A question sent (or a reply begun) meanwhile is newer than this answer: it is not replaced by it.
        const changed = get().convs[id]?.messages !== shown || !!get().running[id];
        patchConv(id, () => (changed ? { loading: false } : { ...view(r), loading: false }));
      } catch (e) {
        patchConv(id, () => ({ loading: false, error: e as AppErrorShape }));
      }
    },

    loadMore: async (id, dir) => {
      const c = get().convs[id];
      const edge = dir === 'older' ? c?.messages[0] : c?.messages.at(-1);
      if (!c || !edge || c.paging?.loading || !(dir === 'older' ? c.hasOlder : c.hasNewer)) return;
      const at = (x: ConvData) => (dir === 'older' ? x.messages[0] : x.messages.at(-1))?.id;
      patchConv(id, () => ({ paging: { dir, loading: true } }));
      try {
        const r =
          dir === 'older'
            ? await api.call('chat.older', { id, before: edge.id })
            : await api.call('chat.newer', { id, after: edge.id });
        // Only if the window still ends there (a reply, a version switch or a reload changes it meanwhile).
        patchConv(id, (now) =>
          at(now) !== edge.id
            ? { paging: undefined }
            : {
                messages: dir === 'older' ? [...r.messages, ...now.messages] : [...now.messages, ...r.messages],
                versions: { ...r.versions, ...now.versions },
                ...(dir === 'older' ? { hasOlder: r.hasOlder } : { hasNewer: r.hasNewer }),
                paging: undefined,
              },
        );
      } catch (e) {
        patchConv(id, () => ({ paging: { dir, loading: false, error: e as AppErrorShape } }));
      }
    },

    setDraft: (id, text) => set((s) => ({ drafts: { ...s.drafts, [id]: text } })),
  };
});
