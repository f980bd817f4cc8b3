import { randomBytes } from 'node:crypto';
import type { ChatMessage } from '@shared/contract/chat-message';
import { conversationMetaSchema, type ConversationMeta } from '@shared/contract/chat-conversation';
import type { TreeMessage } from '@shared/contract/chat-export';
import { chatTitle, DEFAULT_CHAT_TITLE } from '@shared/chat-title';
import type { ChatDb } from './db';
import type { ConversationRow, MessageRow } from './db-queries';

export const newId = (prefix: 'c' | 'm' | 'r' | 'k') =>
  `${prefix}_${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;

export const DEFAULT_TITLE = DEFAULT_CHAT_TITLE;

/** The optional fields of a message that have no column of their own, kept as one JSON object. */
const EXTRA_KEYS = [
  'images',
  'toolCalls',
  'toolName',
  'toolCallId',
  'toolSource',
  'toolArguments',
  'toolState',
  'toolDecision',
  'durationMs',
  'notice',
  'error',
  'figures',
  'context',
  'model',
] as const;

export function messageToRow(m: ChatMessage, conversationId: string, parentId: string | null): MessageRow {
  const extra: Record<string, unknown> = {};
  for (const k of EXTRA_KEYS) if (m[k] !== undefined) extra[k] = m[k];
  return {
    id: m.id,
    conversation_id: conversationId,
    parent_id: parentId,
    role: m.role,
    content: m.content,
    thinking: m.thinking ?? null,
    status: m.status,
    extra: Object.keys(extra).length ? JSON.stringify(extra) : null,
    created_at: m.createdAt,
  };
}

export function rowToMessage(r: MessageRow): ChatMessage {
  const m = {
    id: r.id,
    role: r.role,
    content: r.content,
    status: r.status,
    createdAt: r.created_at,
    ...(r.thinking !== null ? { thinking: r.thinking } : {}),
    ...(r.extra ? (JSON.parse(r.extra) as object) : {}),
  } as ChatMessage;
  return m;
}

/** The metadata column holds the whole ConversationMeta; title and pinned are also columns (search, sorting). */
export function rowToMeta(r: ConversationRow): ConversationMeta {
  return conversationMetaSchema.parse(JSON.parse(r.meta));
}

export function metaColumns(meta: ConversationMeta, leafId: string | null) {
  return {
    id: meta.id,
    title: meta.title,
    meta: JSON.stringify(meta),
    leaf_id: leafId,
    pinned: meta.pinned ? 1 : 0,
    updated_at: meta.updatedAt,
  };
}

/** A title that sums up the first user message (see chatTitle): its first sentence's words, without the greeting. */
export function titleFrom(text: string): string {
  return chatTitle(text);
}

/** Writes a conversation and its messages as one chain, in one transaction. */
export function insertLinear(db: ChatDb, meta: ConversationMeta, messages: ChatMessage[]): void {
  const chain = messages.map((m, i) => ({ ...m, parentId: messages[i - 1]?.id ?? null }));
  insertTree(db, meta, chain, messages.at(-1)?.id ?? null);
}

/** Writes a conversation's whole tree (a parent before its replies) and the message shown last, in one transaction. */
export function insertTree(db: ChatDb, meta: ConversationMeta, messages: TreeMessage[], leafId: string | null): void {
  db.tx(() => {
    db.insertConversation({ ...metaColumns(meta, leafId), created_at: meta.createdAt });
    for (const { parentId, ...m } of messages) db.insertMessage(messageToRow(m, meta.id, parentId));
    // An import is searchable at once, indexed in the same transaction.
    db.indexPending();
  });
}
