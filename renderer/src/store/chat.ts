import { create } from 'zustand';
import type { ChatEvent, ChatListCursor, ChatMessage, ChatSearchResult, ConversationMeta } from '@shared/contract/chat';
import type { Input } from '@shared/contract';
import type { AppErrorShape } from '@shared/errors';
import { importFileText } from '@shared/import-file-text';
import { modelMismatch, routerKey } from '@shared/chat-model';
import { api } from '../api';
import { mergeList } from './chat-list';
import { runningChatModel, upsert, view } from './chat-view';
import { LiveText, live, liveText } from './live-text';
import { useEndpoints } from './endpoints';
import { useSettings } from './settings';

export { LiveText, liveText } from './live-text';

export type PageDir = 'older' | 'newer';

interface ConvData {
  meta?: ConversationMeta;
  messages: ChatMessage[];
  /** Message id → its versions (oldest first), for messages that have more than one. */
  versions?: Record<string, string[]>;
  /** `messages` is a window of a long conversation: earlier or later ones come with `loadMore`. */
  hasOlder?: boolean;
  hasNewer?: boolean;
  /** Loading earlier or later messages (scrolled to the top or the bottom), or why that failed. */
  paging?: { dir: PageDir; loading: boolean; error?: AppErrorShape };
  loading: boolean;
  error?: AppErrorShape;
}

interface Running {
  cancel(): void;
  retry?: string;
}

interface ChatState {
  /** The pages of the conversation list read so far; `listNext` asks for the next one. */
  list: ConversationMeta[];
  listNext?: ChatListCursor;
  listLoading: boolean;
  listError?: AppErrorShape;
  /** The next page is on its way, or why it failed. */
  listMore?: { loading: boolean; error?: AppErrorShape };
  /** The search box: titles and message text (chat.search). */
  query: string;
  results: ChatSearchResult[];
  searching: boolean;
  searchError?: AppErrorShape;
  /** A message to bring into view once its conversation is open (a search hit). */
  focus?: { convId: string; messageId: string };
  currentId?: string;
  convs: Record<string, ConvData>;
  running: Record<string, Running>;
  /** The last error of a reply per conversation, shown above the composer. */
  replyError: Record<string, AppErrorShape | undefined>;
  /** Typed but not sent, per conversation: never lost on an error. */
  drafts: Record<string, string>;
  undo?: { id: string; title: string };
  /** The list's first page, read afresh. */
  loadList(): Promise<void>;
  /** The list's next page (scrolled near its end), when there is one and none is on its way. */
  loadMoreList(): Promise<void>;
  search(query: string): Promise<void>;
  /** Opens a conversation at a message: on the selected path, or by switching to the version that holds it. */
  focusMessage(convId: string, messageId: string): Promise<void>;
  open(id: string | undefined): Promise<void>;
  /** Pages in the messages before the first one shown (chat.older) or after the last (chat.newer). */
  loadMore(id: string, dir: PageDir): Promise<void>;
  create(init?: Partial<ConversationMeta>): Promise<ConversationMeta>;
  update(id: string, patch: Input<'chat.update'>['patch']): Promise<void>;
  remove(id: string): Promise<void>;
  restore(): Promise<void>;
  setDraft(id: string, text: string): void;
  send(id: string, text: string, images?: string[]): void;
  regenerate(id: string, edit?: { messageId: string; content: string }): void;
  editOnly(id: string, messageId: string, content: string): Promise<void>;
  selectVersion(id: string, messageId: string): Promise<void>;
  /** Answers a tool call of the reply being written: allow once / always here / deny, or cancel a running one. */
  answerTool(id: string, messageId: string, answer: Input<'chat.toolDecision'>['decision']): Promise<void>;
  stop(id: string): void;
  /**
   * One conversation or an "Export all" archive, of any length; resolves with what was imported. One already here
   * is refused (`conflict`, `details.duplicates`) unless `asCopy`.
   */
  importJson(text: string, asCopy?: boolean): Promise<ConversationMeta[]>;
}

export const useChat = create<ChatState>((set, get) => {
  const patchConv = (id: string, fn: (c: ConvData) => Partial<ConvData>) =>
    set((s) => {
      const c = s.convs[id] ?? { messages: [], loading: false };
      return { convs: { ...s.convs, [id]: { ...c, ...fn(c) } } };
    });

  const refreshMeta = (meta: ConversationMeta) =>
    set((s) => ({
      list: mergeList(s.list, [meta], s.listNext),
      convs: s.convs[meta.id] ? { ...s.convs, [meta.id]: { ...s.convs[meta.id], meta } } : s.convs,
    }));

  /** Applies a batch of stream events: one state change per batch, text deltas outside React. */
  const apply = (convId: string, events: ChatEvent[], seen: { user: boolean }) => {
    const before = get().convs[convId]?.messages ?? [];
    let messages = before;
    let changed = false;
    const touched = new Set<LiveText>();
    for (const e of events) {
      if (e.type === 'message') {
        if (e.message.role === 'user') seen.user = true;
        if (e.message.status === 'streaming') {
          const t = liveText(e.message.id);
          t.content = e.message.content;
          t.thinking = e.message.thinking ?? '';
        } else live.delete(e.message.id);
        messages = upsert(messages, e.message);
        changed = true;
      } else if (e.type === 'delta') {
        const t = liveText(e.id);
        t.add(e.content, e.thinking);
        touched.add(t);
      } else if (e.type === 'cut') {
        const i = messages.findIndex((m) => m.id === e.from);
        if (i >= 0) {
          messages = messages.slice(0, i);
          changed = true;
          // What followed in main, shown or not, is now an earlier version: the window ends here.
          patchConv(convId, () => ({ hasNewer: false }));
        }
      } else if (e.type === 'retry') {
        set((s) => ({
          running: {
            ...s.running,
            [convId]: { ...s.running[convId], retry: `Retrying (attempt ${e.attempt}) after ${e.reason}…` },
          },
        }));
      }
    }
    if (changed) {
      patchConv(convId, () => ({ messages }));
      // The sidebar shows the new title and count at once, as main sets them (titleFrom in main's rows.ts).
      const first = messages.find((m) => m.role === 'user' && m.content.trim());
      set((s) => ({
        list: s.list.map((m) =>
          m.id !== convId
            ? m
            : {
                ...m,
                // What was added or cut: a long conversation shows only its last messages.
                messageCount: Math.max(0, m.messageCount + messages.length - before.length),
                title:
                  m.title === 'New chat' && first ? first.content.trim().replace(/\s+/g, ' ').slice(0, 60) : m.title,
              },
        ),
      }));
    }
    for (const t of touched) t.notify();
  };

  /** Runs a reply stream; on stop or error the partial answer stays, marked, and an unsent text comes back. */
  const runStream = (
    convId: string,
    start: (onEvents: (evs: ChatEvent[]) => void) => { result: Promise<unknown>; cancel(): void },
    draft?: string,
    after?: () => void,
  ) => {
    const seen = { user: false };
    set((s) => ({ replyError: { ...s.replyError, [convId]: undefined } }));
    const h = start((evs) => apply(convId, evs, seen));
    set((s) => ({ running: { ...s.running, [convId]: { cancel: h.cancel } } }));
    h.result
      .catch((e: AppErrorShape) => {
        const stopped = e.code === 'aborted';
        patchConv(convId, (c) => ({
          messages: c.messages.map((m) => {
            if (m.status !== 'streaming') return m;
            const t = live.get(m.id);
            live.delete(m.id);
            const fin: ChatMessage = { ...m, content: t?.content ?? m.content, status: stopped ? 'stopped' : 'error' };
            if (t?.thinking) fin.thinking = t.thinking;
            if (!stopped) fin.error = e;
            return fin;
          }),
        }));
        if (!stopped) set((s) => ({ replyError: { ...s.replyError, [convId]: e } }));
        // The message never reached main: give the text back rather than lose it.
        if (draft !== undefined && !seen.user && !get().drafts[convId]) get().setDraft(convId, draft);
      })
      .finally(() => {
        set((s) => {
          const running = { ...s.running };
          delete running[convId];
          return { running };
        });
        // The title and message count changed in main: refresh the list and this conversation's metadata (it is
        // the most recently updated, so on the first page).
        void api
          .call('chat.list', {})
          .then((r) => {
            set((s) => ({ list: mergeList(s.list, r.conversations, s.listNext) }));
            const meta = r.conversations.find((m) => m.id === convId);
            if (meta) patchConv(convId, () => ({ meta }));
          })
          .catch(() => {});
        after?.();
      });
  };

  /** Reloads a conversation's path and versions (after a regenerate or an edit changed them), back to `around`. */
  const reload = (id: string, around?: string) =>
    api
      .call('chat.get', around ? { id, around } : { id })
      .then((r) => {
        if (!get().running[id]) patchConv(id, () => view(r));
      })
      .catch(() => {});

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

    open: async (id) => {
      set({ currentId: id });
      if (!id || get().running[id]) return;
      patchConv(id, () => ({ loading: true, error: undefined }));
      try {
        const r = await api.call('chat.get', { id });
        patchConv(id, () => ({ ...view(r), loading: false }));
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

    create: async (init = {}) => {
      // The open conversation's model, else the one used last, else one Ollama has loaded (it answers at once): one
      // that can answer, its model fitting its engine and, on the router, a Hugging Face token there.
      const key = routerKey(useSettings.getState().view);
      // An endpoint only while it is still there (the list is read in Settings and by the chat's engine choice).
      const endpoints = useEndpoints.getState().list;
      const usable = (m: ConversationMeta | undefined): m is ConversationMeta =>
        !!m?.model &&
        !modelMismatch(m.backend, m.model) &&
        (m.backend !== 'provider' || (key !== 'missing' && key !== 'withheld')) &&
        (m.backend !== 'endpoint' || !!endpoints?.some((e) => e.id === m.endpoint));
      const open = get().currentId ? get().convs[get().currentId!]?.meta : undefined;
      const cur =
        (usable(open) ? open : undefined) ??
        [...get().list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)).find(usable) ??
        (await runningChatModel());
      const meta = await api.call('chat.create', {
        ...(cur ? { backend: cur.backend, model: cur.model, provider: cur.provider } : {}),
        ...(cur?.backend === 'endpoint' && 'endpoint' in cur ? { endpoint: cur.endpoint } : {}),
        ...init,
      } as never);
      refreshMeta(meta);
      patchConv(meta.id, () => ({ meta, messages: [], loading: false }));
      set({ currentId: meta.id });
      return meta;
    },

    update: async (id, patch) => {
      const meta = await api.call('chat.update', { id, patch });
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

    setDraft: (id, text) => set((s) => ({ drafts: { ...s.drafts, [id]: text } })),

    send: (id, text, images) => {
      get().setDraft(id, '');
      if (get().focus?.convId === id) set({ focus: undefined });
      const go = () =>
        runStream(
          id,
          (on) => api.stream('chat.send', { id, content: text, ...(images?.length ? { images } : {}) }, on),
          text,
        );
      // A window opened further back (a search hit) does not end where the reply goes: show the end first.
      if (get().convs[id]?.hasNewer) void reload(id).then(go);
      else go();
    },

    regenerate: (id, edit) => {
      runStream(
        id,
        (on) => api.stream('chat.regenerate', edit ? { id, edit } : { id }, on),
        undefined,
        () => void reload(id),
      );
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

    answerTool: async (id, messageId, decision) => {
      const { meta } = await api.call('chat.toolDecision', { id, messageId, decision });
      refreshMeta(meta);
    },

    stop: (id) => {
      const run = get().running[id];
      if (!run) return;
      // What the page shows is what is kept: the reply stops where it was last painted, and main keeps that much.
      const m = get().convs[id]?.messages.findLast((x) => x.status === 'streaming');
      const t = m && live.get(m.id);
      const shown = t ? { messageId: m.id, ...t.stop() } : { content: 0, thinking: 0 };
      // Main ends the stream itself, after the reply's last word; cancelling it is for when main could not.
      void api.call('chat.stop', { id, shown }).then(
        (r) => !r.stopped && run.cancel(),
        () => run.cancel(),
      );
    },

    importJson: async (text, asCopy) => {
      const { conversations } = await importFileText(api, text, asCopy);
      await get().loadList();
      return conversations;
    },
  };
});
