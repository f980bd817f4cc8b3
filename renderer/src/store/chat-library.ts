import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type { AppErrorShape } from '@shared/errors';
import { importFileText } from '@shared/import-file-text';
import { modelMismatch } from '@shared/chat-model';
import { api } from '../api';
import { engineFacts } from '../lib/engines';
import { mergeList } from './chat-list';
import { trackSave } from './chat-saves';
import type { ChatKit, ChatState } from './chat-state';
import { runningChatModel } from './chat-view';
import { useEndpoints } from './endpoints';
import { useSettings } from './settings';

/** The conversation list: its pages, search, new, rename and settings, delete and undo, import. */
export function libraryActions({
  set,
  get,
  patchConv,
  refreshMeta,
}: ChatKit): Pick<
  ChatState,
  | 'loadList'
  | 'loadMoreList'
  | 'search'
  | 'create'
  | 'update'
  | 'remove'
  | 'restore'
  | 'importJson'
  | 'exportFile'
  | 'exportAll'
> {
  return {
    loadList: async () => {
      // "Loading" is for a list never read (or read in vain): a list at hand stays on screen while it is asked again.
      if (get().listError) set({ listLoading: true, listError: undefined });
      try {
        const r = await api.call('chat.list', {});
        set({
          list: r.conversations,
          listNext: r.nextCursor,
          listMore: undefined,
          listLoading: false,
          listError: undefined,
        });
      } catch (e) {
        set({ listLoading: false, listError: e as AppErrorShape });
      }
    },

    loadMoreList: async () => {
      const cursor = get().listNext;
      if (!cursor || get().listMore?.loading) return;
      set({ listMore: { loading: true } });
      try {
        const r = await api.call('chat.list', { cursor });
        // Only if the list still ends there (a fresh first page replaces it meanwhile).
        if (get().listNext !== cursor) return;
        set((s) => ({
          list: mergeList(s.list, r.conversations, r.nextCursor),
          listNext: r.nextCursor,
          listMore: undefined,
        }));
      } catch (e) {
        if (get().listNext === cursor) set({ listMore: { loading: false, error: e as AppErrorShape } });
      }
    },

    search: async (query) => {
      set({ query, searching: !!query.trim(), searchError: undefined });
      if (!query.trim()) return set({ results: [] });
      try {
        const r = await api.call('chat.search', { query });
        // Answers can arrive out of order while typing: only the one for the current text counts.
        if (get().query === query) set({ results: r.results, searching: false });
      } catch (e) {
        if (get().query === query) set({ searching: false, searchError: e as AppErrorShape });
      }
    },

    create: async (init = {}) => {
      // The open conversation's model, else the one used last, else one Ollama has loaded (it answers at once): one
      // that can answer, its model fitting its engine and, on the router, a Hugging Face token there.
      const view = useSettings.getState().view;
      // An endpoint only while it is still there (the list is read in Settings and by the chat's engine choice): one
      // not read yet counts as gone.
      const endpoints = useEndpoints.getState().list ?? [];
      const usable = (m: ConversationMeta | undefined): m is ConversationMeta =>
        !!m?.model && !modelMismatch(m.backend, m.model) && !engineFacts[m.backend].blocked?.(m, { endpoints, view });
      const open = get().currentId ? get().convs[get().currentId!]?.meta : undefined;
      const cur =
        (usable(open) ? open : undefined) ??
        [...get().list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).find(usable) ??
        (await runningChatModel());
      const meta = await api.call('chat.create', {
        ...(cur ? { backend: cur.backend, model: cur.model, provider: cur.provider } : {}),
        ...(cur && engineFacts[cur.backend].onEndpoint && 'endpoint' in cur ? { endpoint: cur.endpoint } : {}),
        ...init,
      } as never);
      refreshMeta(meta);
      patchConv(meta.id, () => ({ meta, messages: [], loading: false }));
      set({ currentId: meta.id });
      return meta;
    },

    update: async (id, patch) => {
      const meta = await trackSave(id, api.call('chat.update', { id, patch }));
      refreshMeta(meta);
    },

    remove: async (id) => {
      // A reply being written is stopped as Stop does (keeping what was shown); main also stops it before deleting.
      get().stop(id);
      const title = get().list.find((m) => m.id === id)?.title ?? 'Conversation';
      await api.call('chat.delete', { id });
      set((s) => ({
        list: s.list.filter((m) => m.id !== id),
        undo: { id, title },
        currentId: s.currentId === id ? undefined : s.currentId,
      }));
    },

    restore: async () => {
      const u = get().undo;
      if (!u) return;
      set({ undo: undefined });
      const meta = await api.call('chat.restore', { id: u.id });
      refreshMeta(meta);
    },

    importJson: async (text, asCopy) => {
      const { conversations } = await importFileText(api, text, asCopy);
      await get().loadList();
      return conversations;
    },

    exportFile: (id, format) => api.call('chat.export', { id, format }),
    exportAll: () => api.call('chat.exportAll', {}),
  };
}
