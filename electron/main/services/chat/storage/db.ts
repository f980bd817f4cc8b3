import { createRequire } from 'node:module';
import type Database from 'libsql';
import { MIGRATIONS } from './migrations';

/**
 * The chat database: one SQLite file (libsql), WAL, synchronous=FULL so a committed write survives a crash of
 * the process or the machine. Free of app imports (no zod, no AppError) so the crash test's child process runs
 * this very code. Messages form a tree (parent_id): versions of a reply or an edit are siblings, and each
 * conversation remembers its selected leaf.
 */

export type Db = InstanceType<typeof Database>;

/**
 * libsql, a native module of ~9 MB (~13 ms to load): loaded when the first database opens, not with the services
 * (their first load is what the app's first call waits for).
 */
let libsql: typeof Database | undefined;
const loadLibsql = (): typeof Database => (libsql ??= createRequire(import.meta.url)('libsql') as typeof Database);

export { MIGRATIONS } from './migrations';

export const SCHEMA_VERSION = MIGRATIONS.length;

/** How long after a write the message index catches up (see fts_pending). */
const INDEX_DELAY_MS = 250;

export class DbOpenError extends Error {
  constructor(
    readonly reason: 'corrupt' | 'locked' | 'newer' | 'migration' | 'io',
    message: string,
  ) {
    super(message);
  }
}

/** The SQLite error code libsql attaches (SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_BUSY…), if any. */
export function sqliteCode(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : '';
}

function classify(e: unknown, file: string): DbOpenError {
  if (e instanceof DbOpenError) return e;
  const code = sqliteCode(e);
  const msg = String((e as Error)?.message ?? e);
  if (/NOTADB|CORRUPT/.test(code) || /not a database|malformed/i.test(msg))
    return new DbOpenError('corrupt', `The chat database ${file} is damaged (${msg}). It was left untouched.`);
  if (/BUSY|LOCKED/.test(code) || /locked|busy/i.test(msg))
    return new DbOpenError(
      'locked',
      `The chat database ${file} is in use by another program (another HubDesk window?). Close it and try again.`,
    );
  if (/FULL/.test(code) || /disk is full|database or disk is full/i.test(msg))
    return new DbOpenError('io', `The disk holding ${file} is full. Free some space and try again.`);
  return new DbOpenError('io', `The chat database ${file} could not be opened: ${msg}`);
}

/** The schema version (libsql's `pragma(…, {simple: true})` returns the row, not the value). */
export function userVersion(db: Db): number {
  return Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
}

/** Runs the missing migrations, each in its own transaction: a failure leaves the previous version intact. */
function migrate(db: Db, file: string, migrations: string[] = MIGRATIONS): void {
  const version = userVersion(db);
  if (version > migrations.length)
    throw new DbOpenError(
      'newer',
      `The chat database ${file} was written by a newer HubDesk (schema ${version}, this one knows ${migrations.length}). Update HubDesk; the file was left untouched.`,
    );
  for (let v = version; v < migrations.length; v++) {
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec(migrations[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw new DbOpenError(
        'migration',
        `Upgrading the chat database ${file} to schema ${v + 1} failed (${String((e as Error).message)}); it was left at schema ${v}.`,
      );
    }
  }
}

/** Opens (creating if needed) and migrates; throws DbOpenError with a message a person can act on. */
export function openDb(file: string, migrations: string[] = MIGRATIONS): Db {
  let db: Db | undefined;
  try {
    db = new (loadLibsql())(file);
    db.pragma('busy_timeout = 2000');
    // Reading the schema first surfaces a damaged or foreign file before anything is written.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, file, migrations);
    return db;
  } catch (e) {
    try {
      db?.close();
    } catch {
      /* already failing: the first error is the one to report */
    }
    throw classify(e, file);
  }
}

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

/** The prepared statements every write goes through (prepared once: a checkpoint is one cheap UPDATE). */
export class ChatDb {
  readonly db: Db;
  private readonly s;

  constructor(
    readonly file: string,
    migrations?: string[],
  ) {
    this.db = openDb(file, migrations);
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
      countOf: p(`SELECT count(*) AS n FROM messages WHERE conversation_id = ?`),
      getSetting: p(`SELECT value FROM settings WHERE key = ?`),
      setSetting: p(
        `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
    };
  }

  conversation(id: string): ConversationRow | undefined {
    return this.s.getConv.get(id) as ConversationRow | undefined;
  }

  /** Every conversation not deleted, in the list's order. */
  conversations(): ConversationRow[] {
    return this.s.listConv.all() as ConversationRow[];
  }

  /** Up to `limit` conversations in the list's order, after `after` (the last one of the previous page). */
  conversationPage(
    after: { pinned: boolean; updatedAt: string; id: string } | undefined,
    limit: number,
  ): ConversationRow[] {
    const rows = after
      ? this.s.nextPage.all(after.pinned ? 1 : 0, after.updatedAt, after.id, limit)
      : this.s.firstPage.all(limit);
    return rows as ConversationRow[];
  }

  /** A conversation (not deleted) imported from the file conversation with this fingerprint. */
  importedAs(fingerprint: string): ConversationRow | undefined {
    return this.s.importedAs.get(fingerprint) as ConversationRow | undefined;
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

  messages(conversationId: string): MessageRow[] {
    return this.s.messagesOf.all(conversationId) as MessageRow[];
  }

  message(id: string, conversationId: string): MessageRow | undefined {
    return this.s.message.get(id, conversationId) as MessageRow | undefined;
  }

  /** The most recently written message (the path's end when a conversation has no leaf recorded). */
  lastMessageId(conversationId: string): string | null {
    return (this.s.lastOf.get(conversationId) as { id: string } | undefined)?.id ?? null;
  }

  /** Up to `limit` messages of the path ending at `from` (it included), oldest first. */
  pathUp(conversationId: string, from: string, limit: number): MessageRow[] {
    return this.s.pathUp.all(from, conversationId, limit) as MessageRow[];
  }

  /** The ids of the path ending at `from`, newest first (ids only: cheap even for a long conversation). */
  pathIds(conversationId: string, from: string): string[] {
    return (this.s.pathIds.all(from, conversationId) as { id: string }[]).map((r) => r.id);
  }

  /** The children of these parents (`null`: the roots), oldest first. */
  children(conversationId: string, parents: (string | null)[]): { id: string; parent_id: string | null }[] {
    type Child = { id: string; parent_id: string | null };
    const ids = parents.filter((p): p is string => p !== null);
    const out = ids.length ? (this.s.childrenOf.all(conversationId, JSON.stringify(ids)) as Child[]) : [];
    return parents.includes(null) ? [...(this.s.rootsOf.all(conversationId) as Child[]), ...out] : out;
  }

  latestChild(conversationId: string, parentId: string): string | undefined {
    return (this.s.latestChild.get(conversationId, parentId) as { id: string } | undefined)?.id;
  }

  /** At start, before any reply runs: a reply left streaming by a crash or a kill is "interrupted". */
  interruptStreaming(): void {
    this.tx(() => this.s.interruptAll.run());
  }

  count(conversationId: string): number {
    return Number((this.s.countOf.get(conversationId) as { n: number }).n);
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

  setting(key: string): string | undefined {
    return (this.s.getSetting.get(key) as { value: string } | undefined)?.value;
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
