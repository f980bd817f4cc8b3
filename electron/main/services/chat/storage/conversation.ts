import type { ChatMessage } from '@shared/contract/chat-message';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { AppError } from '@shared/errors';
import type { ChatDb } from './db';
import type { MessageRow } from './db-queries';
import { storageError } from './storage-error';
import { DEFAULT_TITLE, messageToRow, metaColumns, newId, rowToMessage, titleFrom } from './rows';

/** How many messages opening a conversation shows, and how many each step back in time adds. */
export const WINDOW = 100;

/** A stretch of the selected path: oldest first, the versions of its messages, and what lies beyond it. */
export interface PathWindow {
  messages: ChatMessage[];
  /** Message id → the ids of its versions (siblings, oldest first); only messages with more than one. */
  versions: Record<string, string[]>;
  hasOlder: boolean;
  hasNewer: boolean;
}

const empty = (): PathWindow => ({ messages: [], versions: {}, hasOlder: false, hasNewer: false });

/**
 * One open conversation: its metadata and selected leaf. Opening reads no messages: a window of the path
 * comes from the database (`window`, `older`), and the whole path (`messages`: the reply's history, export,
 * "Open as code") is read on first need and then kept in step with the writes. Writes go to the database
 * first; memory changes only once they are committed.
 */
export class Conversation {
  /** The whole selected path, once something needed it. */
  private path?: ChatMessage[];
  /** Set when the conversation is deleted: writes through this handle fail instead of reviving it. */
  closed = false;

  constructor(
    public meta: ConversationMeta,
    private leaf: string | null,
    private readonly db: ChatDb,
  ) {}

  /** One transaction; SQLite failures become errors that say what to do (disk full, database busy). */
  private tx<T>(fn: () => T): T {
    // Only a reply still running holds a deleted conversation (ChatService.delete stops it first): it just ends.
    if (this.closed) throw new AppError('aborted', 'This conversation was deleted: its reply was stopped.');
    try {
      return this.db.tx(fn);
    } catch (e) {
      throw storageError(e, this.db.file);
    }
  }

  /** The selected path, root → leaf: what the model receives. Read from the database on first use. */
  get messages(): ChatMessage[] {
    this.path ??= this.leaf ? this.db.pathUp(this.meta.id, this.leaf, Number.MAX_SAFE_INTEGER).map(rowToMessage) : [];
    return this.path;
  }

  /**
   * The last `limit` messages of the path; with `around` (a message on it further back, such as a search hit),
   * `limit` messages centred on it instead.
   */
  window({ limit = WINDOW, around }: { limit?: number; around?: string } = {}): PathWindow {
    if (!this.leaf) return empty();
    if (around) {
      // Ids only (cheap even for a long path), newest first: where the message is, counted from the end.
      const ids = this.db.pathIds(this.meta.id, this.leaf);
      const at = ids.indexOf(around);
      if (at >= limit) {
        const newest = at - Math.floor(limit / 2);
        return this.windowOf(this.db.pathUp(this.meta.id, ids[newest], limit), newest > 0);
      }
    }
    return this.windowOf(this.db.pathUp(this.meta.id, this.leaf, limit), false);
  }

  /** Up to `limit` messages of the path just before `before` (a message of this conversation). */
  older(before: string, limit = WINDOW): PathWindow {
    const row = this.db.message(before, this.meta.id);
    if (!row) throw new AppError('not_found', 'That message no longer exists: reopen the conversation.');
    if (!row.parent_id) return empty();
    return this.windowOf(this.db.pathUp(this.meta.id, row.parent_id, limit), true);
  }

  /** Up to `limit` messages of the path just after `after` (a message on it), towards its end. */
  newer(after: string, limit = WINDOW): PathWindow {
    const ids = this.leaf ? this.db.pathIds(this.meta.id, this.leaf) : [];
    const at = ids.indexOf(after);
    if (at < 0) throw new AppError('not_found', 'That message is no longer shown here: reopen the conversation.');
    if (at === 0) return empty();
    const newest = Math.max(0, at - limit);
    return this.windowOf(this.db.pathUp(this.meta.id, ids[newest], at - newest), newest > 0);
  }

  private windowOf(rows: MessageRow[], hasNewer: boolean): PathWindow {
    return {
      messages: rows.map(rowToMessage),
      versions: this.versionsOf(rows),
      hasOlder: (rows[0]?.parent_id ?? null) !== null,
      hasNewer,
    };
  }

  /** The versions of these messages: their siblings, for those that have some. */
  private versionsOf(rows: Pick<MessageRow, 'id' | 'parent_id'>[]): Record<string, string[]> {
    const byParent = new Map<string | null, string[]>();
    for (const c of this.db.children(this.meta.id, [...new Set(rows.map((r) => r.parent_id))])) {
      const list = byParent.get(c.parent_id) ?? [];
      list.push(c.id);
      byParent.set(c.parent_id, list);
    }
    const out: Record<string, string[]> = {};
    for (const r of rows) {
      const sibs = byParent.get(r.parent_id) ?? [];
      if (sibs.length > 1) out[r.id] = sibs;
    }
    return out;
  }

  find(id: string): ChatMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  /** Versions of a message: its siblings (same parent), oldest first. */
  siblings(id: string): string[] {
    const row = this.db.message(id, this.meta.id);
    return row ? this.db.children(this.meta.id, [row.parent_id]).map((c) => c.id) : [];
  }

  /** Every message on the path that has other versions, with them. */
  versions(): Record<string, string[]> {
    return this.leaf ? this.versionsOf(this.db.pathUp(this.meta.id, this.leaf, Number.MAX_SAFE_INTEGER)) : {};
  }

  private saveMeta(patch: Partial<ConversationMeta>, leaf = this.leaf): void {
    const meta = { ...this.meta, ...patch, updatedAt: new Date().toISOString() };
    this.db.updateConversation(metaColumns(meta, leaf));
    this.meta = meta;
    this.leaf = leaf;
  }

  /** Adds a message at the end of the path, or replaces one by id; returns once it is committed. */
  put(msg: ChatMessage): void {
    const existing = this.db.message(msg.id, this.meta.id);
    if (existing) {
      const row = messageToRow(msg, this.meta.id, existing.parent_id);
      this.tx(() => this.db.replaceMessage(row));
      const i = this.path?.findIndex((m) => m.id === msg.id) ?? -1;
      if (i >= 0) this.path![i] = msg;
      return;
    }
    const parent = this.leaf;
    const patch: Partial<ConversationMeta> = { messageCount: this.meta.messageCount + 1 };
    if (this.meta.title === DEFAULT_TITLE && msg.role === 'user' && msg.content.trim())
      patch.title = titleFrom(msg.content);
    this.tx(() => {
      this.db.insertMessage(messageToRow(msg, this.meta.id, parent));
      this.saveMeta(patch, msg.id);
    });
    this.path?.push(msg);
  }

  /** A checkpoint of a streaming reply: the text since the previous one. */
  append(id: string, content: string, thinking: string): void {
    if (!content && !thinking) return;
    this.tx(() => this.db.append(id, content, thinking));
    const m = this.path?.findLast((x) => x.id === id);
    if (m) {
      m.content += content;
      if (thinking) m.thinking = (m.thinking ?? '') + thinking;
    }
  }

  /**
   * Steps the path back to before this message, keeping it and what follows as an earlier version: the next
   * message put becomes its sibling (regenerate, edit and regenerate). Nothing is deleted.
   */
  branchBefore(from: string): void {
    const i = this.messages.findIndex((m) => m.id === from);
    if (i < 0) return;
    const kept = this.messages.slice(0, i);
    this.tx(() => this.saveMeta({ messageCount: kept.length }, kept.at(-1)?.id ?? null));
    this.path = kept;
  }

  /** Shows this version: the path goes through it and on to its latest descendant. */
  select(id: string): boolean {
    if (!this.db.message(id, this.meta.id)) return false;
    let leaf = id;
    for (let next = this.db.latestChild(this.meta.id, leaf); next; next = this.db.latestChild(this.meta.id, leaf))
      leaf = next;
    const count = this.db.pathIds(this.meta.id, leaf).length;
    this.tx(() => this.db.updateConversation(metaColumns({ ...this.meta, messageCount: count }, leaf)));
    this.meta = { ...this.meta, messageCount: count };
    this.leaf = leaf;
    this.path = undefined;
    return true;
  }

  /**
   * Saves an edit of a message as a new version of it (a sibling) with nothing after it yet, and ends the path
   * there. The message and its replies stay as they were, an earlier version: a reply never moves under text it
   * did not answer.
   */
  saveAsVersion(id: string, content: string): ChatMessage {
    const row = this.db.message(id, this.meta.id)!;
    const next: ChatMessage = { ...rowToMessage(row), id: newId('m'), content, createdAt: new Date().toISOString() };
    const count = (row.parent_id ? this.db.pathIds(this.meta.id, row.parent_id).length : 0) + 1;
    this.tx(() => {
      this.db.insertMessage(messageToRow(next, this.meta.id, row.parent_id));
      this.saveMeta({ messageCount: count }, next.id);
    });
    this.path = undefined;
    return next;
  }

  touch(patch: Partial<ConversationMeta> = {}): void {
    this.tx(() => this.saveMeta(patch));
  }
}
