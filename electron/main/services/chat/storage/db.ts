import { openDb } from './db-open';
import { ChatDbQueries, type ConversationRow, type MessageRow } from './db-queries';

/** How long after a write the message index catches up (see fts_pending). */
const INDEX_DELAY_MS = 250;

/**
 * The chat database: its reads (ChatDbQueries), and the prepared statements every write goes through (prepared
 * once: a checkpoint is one cheap UPDATE), in transactions that keep the message index caught up.
 */
export class ChatDb extends ChatDbQueries {
  private readonly s;

  constructor(
    readonly file: string,
    migrations?: string[],
  ) {
    super(openDb(file, migrations));
    const p = (sql: string) => this.db.prepare(sql);
    this.s = {
      insertConv: p(
        `INSERT INTO conversations (id, title, meta, leaf_id, pinned, created_at, updated_at)
         VALUES (@id, @title, @meta, @leaf_id, @pinned, @created_at, @updated_at)`,
      ),
      updateConv: p(
        `UPDATE conversations SET title = @title, meta = @meta, leaf_id = @leaf_id, pinned = @pinned,
         updated_at = @updated_at WHERE id = @id`,
      ),
      softDelete: p(`UPDATE conversations SET deleted_at = ? WHERE id = ?`),
      purge: p(`DELETE FROM conversations WHERE deleted_at IS NOT NULL`),
      purgeMessages: p(
        `DELETE FROM messages WHERE conversation_id IN (SELECT id FROM conversations WHERE deleted_at IS NOT NULL)`,
      ),
      insertMsg: p(
        `INSERT INTO messages (id, conversation_id, parent_id, role, content, thinking, status, extra, created_at)
         VALUES (@id, @conversation_id, @parent_id, @role, @content, @thinking, @status, @extra, @created_at)`,
      ),
      replaceMsg: p(
        `UPDATE messages SET content = @content, thinking = @thinking, status = @status, extra = @extra,
         created_at = @created_at WHERE id = @id AND conversation_id = @conversation_id`,
      ),
      appendMsg: p(
        `UPDATE messages SET content = content || ?, thinking = CASE WHEN ? = '' THEN thinking
         ELSE coalesce(thinking, '') || ? END WHERE id = ?`,
      ),
      interruptAll: p(`UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'`),
      anyPending: p(`SELECT 1 FROM fts_pending LIMIT 1`),
      unindex: p(
        `INSERT INTO messages_fts(messages_fts, rowid, content)
         SELECT 'delete', seq, old FROM fts_pending WHERE old IS NOT NULL`,
      ),
      index: p(
        `INSERT INTO messages_fts(rowid, content) SELECT m.seq, m.content FROM fts_pending p JOIN messages m USING (seq)`,
      ),
      clearPending: p(`DELETE FROM fts_pending`),
      setSetting: p(
        `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
    };
  }

  insertConversation(row: Omit<ConversationRow, 'deleted_at'>): void {
    this.s.insertConv.run(row);
  }

  updateConversation(row: Omit<ConversationRow, 'created_at' | 'deleted_at'>): void {
    this.s.updateConv.run(row);
  }

  softDelete(id: string, at: string | null): void {
    this.s.softDelete.run(at, id);
  }

  /** Removes conversations deleted in an earlier session (their undo window has passed). */
  purgeDeleted(): void {
    this.tx(() => {
      this.s.purgeMessages.run();
      this.s.purge.run();
    });
  }

  /** At start, before any reply runs: a reply left streaming by a crash or a kill is "interrupted". */
  interruptStreaming(): void {
    this.tx(() => this.s.interruptAll.run());
  }

  insertMessage(row: MessageRow): void {
    this.s.insertMsg.run(row);
  }

  replaceMessage(row: Omit<MessageRow, 'parent_id' | 'role'>): void {
    this.s.replaceMsg.run(row);
  }

  /** A streaming checkpoint: the text since the previous one, appended in place. */
  append(id: string, content: string, thinking: string): void {
    this.s.appendMsg.run(content, thinking, thinking, id);
  }

  setSetting(key: string, value: string): void {
    this.s.setSetting.run(key, value);
  }

  /** Runs fn in one transaction (one fsync for the lot); rolls back if it throws. */
  tx<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const out = fn();
      this.db.exec('COMMIT');
      this.indexSoon();
      return out;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  private indexTimer?: ReturnType<typeof setTimeout>;

  /** Brings the message index up to date shortly after writes: one commit for all written meanwhile. */
  private indexSoon(): void {
    if (this.indexTimer) return;
    this.indexTimer = setTimeout(() => {
      this.indexTimer = undefined;
      try {
        this.indexPending();
      } catch {
        /* busy or full: the rows stay pending, indexed before the next search */
      }
    }, INDEX_DELAY_MS);
    this.indexTimer.unref?.();
  }

  /** Indexes the messages written since the last time (search calls this first, so it sees every message). */
  indexPending(): void {
    if (!this.db.open || !this.s.anyPending.get()) return;
    const run = () => {
      this.s.unindex.run();
      this.s.index.run();
      this.s.clearPending.run();
    };
    if (this.db.inTransaction) return run();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      run();
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  close(): void {
    clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    if (!this.db.open) return;
    try {
      this.indexPending();
    } catch {
      /* left pending: indexed after the next start */
    }
    this.db.close();
  }
}
