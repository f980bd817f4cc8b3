import type { ChatMessage, ConversationMeta } from '@shared/contract/chat';
import { AppError } from '@shared/errors';
import type { ChatDb, MessageRow } from './db';
import { storageError } from './storage-error';
import { DEFAULT_TITLE, messageToRow, metaColumns, newId, rowToMessage, titleFrom } from './rows';

/**
 * One open conversation: its metadata, every message of its tree, and the selected path (root → leaf) in
 * memory. Writes go to the database first; memory changes only once they are committed.
 */
export class Conversation {
  /** The selected path: what the conversation shows and what the model receives. */
  messages: ChatMessage[] = [];
  private readonly nodes = new Map<string, { parent: string | null; seq: number; msg: ChatMessage }>();
  private seq = 0;
  /** Set when the conversation is deleted: writes through this handle fail instead of reviving it. */
  closed = false;

  constructor(
    public meta: ConversationMeta,
    rows: MessageRow[],
    leafId: string | null,
    private readonly db: ChatDb,
  ) {
    for (const r of rows) this.nodes.set(r.id, { parent: r.parent_id, seq: this.seq++, msg: rowToMessage(r) });
    const leaf = leafId && this.nodes.has(leafId) ? leafId : (rows.at(-1)?.id ?? null);
    this.messages = this.pathTo(leaf);
  }

  /** One transaction; SQLite failures become errors that say what to do (disk full, database busy). */
  private tx<T>(fn: () => T): T {
    if (this.closed)
      throw new AppError('internal', 'The reply could not be saved: this conversation was deleted meanwhile.');
    try {
      return this.db.tx(fn);
    } catch (e) {
      throw storageError(e, this.db.file);
    }
  }

  private get leaf(): string | null {
    return this.messages.at(-1)?.id ?? null;
  }

  private pathTo(leaf: string | null): ChatMessage[] {
    const path: ChatMessage[] = [];
    for (let id = leaf; id;) {
      const n = this.nodes.get(id);
      if (!n) break;
      path.push(n.msg);
      id = n.parent;
    }
    return path.reverse();
  }

  find(id: string): ChatMessage | undefined {
    const n = this.nodes.get(id);
    return n && this.messages.includes(n.msg) ? n.msg : undefined;
  }

  /** Versions of a message: its siblings (same parent), oldest first. */
  siblings(id: string): string[] {
    const n = this.nodes.get(id);
    if (!n) return [];
    return [...this.nodes.entries()]
      .filter(([, o]) => o.parent === n.parent)
      .sort(([, a], [, b]) => a.msg.createdAt.localeCompare(b.msg.createdAt) || a.seq - b.seq)
      .map(([k]) => k);
  }

  /** Every message on the path that has other versions, with them. */
  versions(): Record<string, string[]> {
    const counts = new Map<string | null, number>();
    for (const n of this.nodes.values()) counts.set(n.parent, (counts.get(n.parent) ?? 0) + 1);
    const out: Record<string, string[]> = {};
    for (const m of this.messages) {
      const parent = this.nodes.get(m.id)!.parent;
      if ((counts.get(parent) ?? 0) > 1) out[m.id] = this.siblings(m.id);
    }
    return out;
  }

  private saveMeta(patch: Partial<ConversationMeta>): void {
    const meta = { ...this.meta, ...patch, updatedAt: new Date().toISOString() };
    this.db.updateConversation(metaColumns(meta, this.leaf));
    this.meta = meta;
  }

  /** Adds a message at the end of the path, or replaces one by id; returns once it is committed. */
  put(msg: ChatMessage): void {
    const existing = this.nodes.get(msg.id);
    if (existing) {
      const row = messageToRow(msg, this.meta.id, existing.parent);
      this.tx(() => this.db.replaceMessage(row));
      existing.msg = msg;
      const i = this.messages.findIndex((m) => m.id === msg.id);
      if (i >= 0) this.messages[i] = msg;
      return;
    }
    const parent = this.leaf;
    const patch: Partial<ConversationMeta> = { messageCount: this.messages.length + 1 };
    if (this.meta.title === DEFAULT_TITLE && msg.role === 'user' && msg.content.trim())
      patch.title = titleFrom(msg.content);
    this.tx(() => {
      this.db.insertMessage(messageToRow(msg, this.meta.id, parent));
      this.messages.push(msg);
      try {
        this.saveMeta(patch);
      } catch (e) {
        this.messages.pop();
        throw e;
      }
    });
    this.nodes.set(msg.id, { parent, seq: this.seq++, msg });
  }

  /** A checkpoint of a streaming reply: the text since the previous one. */
  append(id: string, content: string, thinking: string): void {
    if (!content && !thinking) return;
    this.tx(() => this.db.append(id, content, thinking));
    const m = this.nodes.get(id)?.msg;
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
    const leaf = kept.at(-1)?.id ?? null;
    this.tx(() =>
      this.db.updateConversation(
        metaColumns({ ...this.meta, messageCount: kept.length, updatedAt: new Date().toISOString() }, leaf),
      ),
    );
    this.messages = kept;
    this.meta = { ...this.meta, messageCount: kept.length };
  }

  /** Shows this version: the path goes through it and on to its latest descendant. */
  select(id: string): boolean {
    if (!this.nodes.has(id)) return false;
    let leaf = id;
    for (;;) {
      let next: string | undefined;
      let best = -1;
      for (const [k, n] of this.nodes) if (n.parent === leaf && n.seq > best) [next, best] = [k, n.seq];
      if (!next) break;
      leaf = next;
    }
    const path = this.pathTo(leaf);
    this.tx(() => this.db.updateConversation(metaColumns({ ...this.meta, messageCount: path.length }, leaf)));
    this.messages = path;
    this.meta = { ...this.meta, messageCount: path.length };
    return true;
  }

  /** Edits a message in place, keeping the previous text as an earlier version (a sibling without replies). */
  editInPlace(id: string, content: string): ChatMessage {
    const n = this.nodes.get(id)!;
    const before: ChatMessage = { ...n.msg, id: newId('m') };
    const next: ChatMessage = { ...n.msg, content, createdAt: new Date().toISOString() };
    this.tx(() => {
      this.db.insertMessage(messageToRow(before, this.meta.id, n.parent));
      this.db.replaceMessage(messageToRow(next, this.meta.id, n.parent));
    });
    this.nodes.set(before.id, { parent: n.parent, seq: this.seq++, msg: before });
    n.msg = next;
    const i = this.messages.findIndex((m) => m.id === id);
    if (i >= 0) this.messages[i] = next;
    return next;
  }

  touch(patch: Partial<ConversationMeta> = {}): void {
    this.tx(() => this.saveMeta(patch));
  }
}
