import type { Db } from './db-open';

/**
 * The chat database's reads: the conversation list, and the message tree walked by path. Messages form a tree
 * (parent_id): versions of a reply or an edit are siblings, and each conversation remembers its selected leaf.
 */

export interface MessageRow {
  id: string;
  conversation_id: string;
  parent_id: string | null;
  role: string;
  content: string;
  thinking: string | null;
  status: string;
  extra: string | null;
  created_at: string;
}

export interface ConversationRow {
  id: string;
  title: string;
  meta: string;
  leaf_id: string | null;
  pinned: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** The prepared statements every read goes through (prepared once). */
export class ChatDbQueries {
  private readonly q;

  constructor(readonly db: Db) {
    const p = (sql: string) => this.db.prepare(sql);
    this.q = {
      getConv: p(`SELECT * FROM conversations WHERE id = ?`),
      importedAs: p(`SELECT * FROM conversations WHERE deleted_at IS NULL
         AND json_extract(meta, '$.importFingerprint') = ? LIMIT 1`),
      // The sidebar's order (pinned first, then the most recently updated), whole or a page at a time after the
      // key (pinned, updated_at, id) the previous page ended at.
      listConv: p(
        `SELECT * FROM conversations WHERE deleted_at IS NULL ORDER BY pinned DESC, updated_at DESC, id DESC`,
      ),
      firstPage: p(`SELECT * FROM conversations WHERE deleted_at IS NULL
         ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?`),
      nextPage: p(`SELECT * FROM conversations WHERE deleted_at IS NULL AND (pinned, updated_at, id) < (?, ?, ?)
         ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?`),
      messagesOf: p(`SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq`),
      message: p(`SELECT * FROM messages WHERE id = ? AND conversation_id = ?`),
      lastOf: p(`SELECT id FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1`),
      // The selected path walked up from a message through its parents, at most ?3 messages, oldest first: a
      // window of a long conversation reads only its own rows (each step is one lookup of the id index).
      pathUp: p(
        `WITH RECURSIVE up(id, n) AS (
           SELECT ?1, 0
           UNION ALL
           SELECT m.parent_id, up.n + 1 FROM messages m JOIN up ON m.id = up.id
           WHERE m.parent_id IS NOT NULL AND up.n + 1 < ?3
         )
         SELECT m.* FROM up JOIN messages m ON m.id = up.id WHERE m.conversation_id = ?2 ORDER BY up.n DESC`,
      ),
      pathIds: p(
        `WITH RECURSIVE up(id, parent) AS (
           SELECT id, parent_id FROM messages WHERE id = ?1 AND conversation_id = ?2
           UNION ALL
           SELECT m.id, m.parent_id FROM messages m JOIN up ON m.id = up.parent
         )
         SELECT id FROM up`,
      ),
      childrenOf: p(
        `SELECT id, parent_id FROM messages WHERE conversation_id = ?1
         AND parent_id IN (SELECT value FROM json_each(?2)) ORDER BY created_at, seq`,
      ),
      rootsOf: p(`SELECT id, parent_id FROM messages WHERE conversation_id = ? AND parent_id IS NULL
         ORDER BY created_at, seq`),
      latestChild: p(`SELECT id FROM messages WHERE conversation_id = ? AND parent_id = ? ORDER BY seq DESC LIMIT 1`),
      countOf: p(`SELECT count(*) AS n FROM messages WHERE conversation_id = ?`),
      getSetting: p(`SELECT value FROM settings WHERE key = ?`),
    };
  }

  conversation(id: string): ConversationRow | undefined {
    return this.q.getConv.get(id) as ConversationRow | undefined;
  }

  /** Every conversation not deleted, in the list's order. */
  conversations(): ConversationRow[] {
    return this.q.listConv.all() as ConversationRow[];
  }

  /** Up to `limit` conversations in the list's order, after `after` (the last one of the previous page). */
  conversationPage(
    after: { pinned: boolean; updatedAt: string; id: string } | undefined,
    limit: number,
  ): ConversationRow[] {
    const rows = after
      ? this.q.nextPage.all(after.pinned ? 1 : 0, after.updatedAt, after.id, limit)
      : this.q.firstPage.all(limit);
    return rows as ConversationRow[];
  }

  /** A conversation (not deleted) imported from the file conversation with this fingerprint. */
  importedAs(fingerprint: string): ConversationRow | undefined {
    return this.q.importedAs.get(fingerprint) as ConversationRow | undefined;
  }

  messages(conversationId: string): MessageRow[] {
    return this.q.messagesOf.all(conversationId) as MessageRow[];
  }

  message(id: string, conversationId: string): MessageRow | undefined {
    return this.q.message.get(id, conversationId) as MessageRow | undefined;
  }

  /** The most recently written message (the path's end when a conversation has no leaf recorded). */
  lastMessageId(conversationId: string): string | null {
    return (this.q.lastOf.get(conversationId) as { id: string } | undefined)?.id ?? null;
  }

  /** Up to `limit` messages of the path ending at `from` (it included), oldest first. */
  pathUp(conversationId: string, from: string, limit: number): MessageRow[] {
    return this.q.pathUp.all(from, conversationId, limit) as MessageRow[];
  }

  /** The ids of the path ending at `from`, newest first (ids only: cheap even for a long conversation). */
  pathIds(conversationId: string, from: string): string[] {
    return (this.q.pathIds.all(from, conversationId) as { id: string }[]).map((r) => r.id);
  }

  /** The children of these parents (`null`: the roots), oldest first. */
  children(conversationId: string, parents: (string | null)[]): { id: string; parent_id: string | null }[] {
    type Child = { id: string; parent_id: string | null };
    const ids = parents.filter((p): p is string => p !== null);
    const out = ids.length ? (this.q.childrenOf.all(conversationId, JSON.stringify(ids)) as Child[]) : [];
    return parents.includes(null) ? [...(this.q.rootsOf.all(conversationId) as Child[]), ...out] : out;
  }

  latestChild(conversationId: string, parentId: string): string | undefined {
    return (this.q.latestChild.get(conversationId, parentId) as { id: string } | undefined)?.id;
  }

  count(conversationId: string): number {
    return Number((this.q.countOf.get(conversationId) as { n: number }).n);
  }

  setting(key: string): string | undefined {
    return (this.q.getSetting.get(key) as { value: string } | undefined)?.value;
  }
}
