import type { ChatListCursor } from '@shared/contract/chat';
import type { ConversationMeta } from '@shared/contract/chat-conversation';

type ListKey = Pick<ConversationMeta, 'pinned' | 'updatedAt' | 'id'>;

/** Main's order for the list (pinned first, then the most recently updated, then by id): negative when `a` leads. */
function compareKeys(a: ListKey, b: ListKey): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

/**
 * The pages read so far with changed or new conversations folded in (they replace those with their id), in main's
 * order. With more pages to read (`next`), one now placed past the end of what was read is left to its page, so
 * reading on neither repeats nor skips it.
 */
export function mergeList(
  list: ConversationMeta[],
  incoming: ConversationMeta[],
  next: ChatListCursor | undefined,
): ConversationMeta[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  const merged = [...byId.values()].sort(compareKeys);
  return next ? merged.filter((m) => compareKeys(m, next) <= 0) : merged;
}
