import type { ConversationMeta } from '@shared/contract/chat-conversation';

/** Where the renderer remembers the conversation open last, so the chat page can reopen it after a restart. */
const KEY = 'hubdesk.chat.lastOpen';

export function rememberOpen(id: string): void {
  try {
    localStorage.setItem(KEY, id);
  } catch {
    /* storage off (private mode, quota): the page then reopens the newest conversation */
  }
}

function remembered(): string | undefined {
  try {
    return localStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The conversation the chat page opens when its address names none: the one open last if it is still in the
 * list, else the most recently updated one (pinned ones lead the list, so not simply the first); none for no list.
 */
export function conversationToReopen(list: readonly ConversationMeta[]): string | undefined {
  const last = remembered();
  if (last && list.some((m) => m.id === last)) return last;
  return list.reduce<ConversationMeta | undefined>((a, m) => (!a || m.updatedAt > a.updatedAt ? m : a), undefined)?.id;
}
