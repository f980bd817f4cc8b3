import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppErrorShape } from '@shared/errors';
import { chatTitle, DEFAULT_CHAT_TITLE } from '@shared/chat-title';
import { api } from '../api';
import { mergeList } from './chat-list';
import { pendingSaves } from './chat-saves';
import type { ChatKit, ChatState } from './chat-state';
import { upsert } from './chat-view';
import { LiveText, live, liveText } from './live-text';

/** Sending and streaming a reply: send, regenerate, Stop, and the answers to a reply's tool calls. */
export function replyActions({
  set,
  get,
  patchConv,
  refreshMeta,
  reload,
}: ChatKit): Pick<ChatState, 'send' | 'regenerate' | 'stop' | 'answerTool'> {
  /** Sets what a running reply shows beside its text (a retry, its place in the model's queue). */
  const patchRunning = (convId: string, patch: { retry?: string; waiting?: { id: string; ahead: number } }) =>
    set((s) => (s.running[convId] ? { running: { ...s.running, [convId]: { ...s.running[convId], ...patch } } } : s));
  /** Reply `id` is no longer waiting for the model (its first text came, or it ended). */
  const doneWaiting = (convId: string, id: string) => {
    if (get().running[convId]?.waiting?.id === id) patchRunning(convId, { waiting: undefined });
  };

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
        } else {
          live.delete(e.message.id);
          doneWaiting(convId, e.message.id);
        }
        messages = upsert(messages, e.message);
        changed = true;
      } else if (e.type === 'delta') {
        const t = liveText(e.id);
        t.add(e.content, e.thinking);
        touched.add(t);
        if (e.content || e.thinking) doneWaiting(convId, e.id);
      } else if (e.type === 'cut') {
        const i = messages.findIndex((m) => m.id === e.from);
        if (i >= 0) {
          messages = messages.slice(0, i);
          changed = true;
          // What followed in main, shown or not, is now an earlier version: the window ends here.
          patchConv(convId, () => ({ hasNewer: false }));
        }
      } else if (e.type === 'retry') {
        patchRunning(convId, { retry: `Retrying (attempt ${e.attempt}) after ${e.reason}…` });
      } else if (e.type === 'waiting') {
        // It follows the reply's 'message' (streaming, still empty): that reply is the one waiting.
        const reply = messages.findLast((m) => m.role === 'assistant' && m.status === 'streaming');
        if (reply) patchRunning(convId, { waiting: { id: reply.id, ahead: e.ahead } });
      }
    }
    if (changed) {
      patchConv(convId, () => ({ messages }));
      // The sidebar shows the new title and count at once, as main sets them (chatTitle, from the first user
      // message that names something: a bare "hi" leaves it to the next).
      const named = () =>
        messages
          .filter((m) => m.role === 'user')
          .map((m) => chatTitle(m.content))
          .find((t) => t !== DEFAULT_CHAT_TITLE);
      set((s) => ({
        list: s.list.map((m) =>
          m.id !== convId
            ? m
            : {
                ...m,
                // What was added or cut: a long conversation shows only its last messages.
                messageCount: Math.max(0, m.messageCount + messages.length - before.length),
                title: (m.title === DEFAULT_CHAT_TITLE && named()) || m.title,
              },
        ),
      }));
    }
    for (const t of touched) t.notify();
  };

  /** The title and message count changed in main: the list and this conversation's metadata, read again. */
  const refreshAfterReply = async (convId: string) => {
    try {
      const r = await api.call('chat.list', {});
      set((s) => ({ list: mergeList(s.list, r.conversations, s.listNext) }));
      // It is the most recently updated, so on the first page.
      const meta = r.conversations.find((m) => m.id === convId);
      if (meta) patchConv(convId, () => ({ meta }));
    } catch {
      /* the list shows what it had; the next read brings it up to date */
    }
  };

  /** Runs a reply stream; on stop or error the partial answer stays, marked, and an unsent text comes back. */
  const runStream = async (
    convId: string,
    start: (onEvents: (evs: ChatEvent[]) => void) => { result: Promise<unknown>; cancel(): void },
    draft?: string,
    after?: () => void,
  ) => {
    const seen = { user: false };
    set((s) => ({ replyError: { ...s.replyError, [convId]: undefined } }));
    // A settings change saved just before goes first: the reply is asked with what the page shows.
    const saving = pendingSaves(convId);
    if (saving) await saving;
    const h = start((evs) => apply(convId, evs, seen));
    set((s) => ({ running: { ...s.running, [convId]: { cancel: h.cancel } } }));
    try {
      await h.result;
    } catch (err) {
      const e = err as AppErrorShape;
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
    } finally {
      set((s) => {
        const running = { ...s.running };
        delete running[convId];
        return { running };
      });
      void refreshAfterReply(convId);
      after?.();
    }
  };

  return {
    send: (id, text, images) => {
      get().setDraft(id, '');
      if (get().focus?.convId === id) set({ focus: undefined });
      const go = () =>
        void runStream(
          id,
          (on) => api.stream('chat.send', { id, content: text, ...(images?.length ? { images } : {}) }, on),
          text,
        );
      // A window opened further back (a search hit) does not end where the reply goes: show the end first.
      if (get().convs[id]?.hasNewer) void reload(id).then(go);
      else go();
    },

    regenerate: (id, edit) => {
      void runStream(
        id,
        (on) => api.stream('chat.regenerate', edit ? { id, edit } : { id }, on),
        undefined,
        () => void reload(id),
      );
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
  };
}
