import type { ChatListCursor } from '@shared/contract/chat';
import { conversationMetaSchema, type ConversationMeta } from '@shared/contract/chat-conversation';
import type { ConversationArchive, ConversationTreeExport } from '@shared/contract/chat-export';
import { AppError } from '@shared/errors';
import type { Logger } from '../../log';
import { Conversation } from './conversation';
import { ChatDb } from './db';
import { parseImportFile, type ImportedConversation } from '../files/import-file';
import { importJournals } from './legacy-import';
import { storageError } from './storage-error';
import { DEFAULT_TITLE, insertTree, metaColumns, newId, rowToMessage, rowToMeta } from './rows';

export type { Conversation } from './conversation';

export interface ChatStoreOptions {
  /** The SQLite file. */
  file: string;
  /** Where the journals of earlier versions live (`<dataDir>/chats`): imported once, then kept as a backup. */
  legacyDir?: string;
}

/**
 * Conversations in one SQLite database. Opened on first use, so a damaged or locked file is reported on the
 * chat page rather than stopping the app. Deleting marks a conversation; `restore` undoes it until the next
 * start, which purges what is still marked.
 */
export class ChatStore {
  private readonly open = new Map<string, Conversation>();
  private chatDb?: ChatDb;

  constructor(
    readonly opts: ChatStoreOptions,
    private readonly log: Logger,
  ) {}

  get db(): ChatDb {
    if (this.chatDb) return this.chatDb;
    try {
      const db = new ChatDb(this.opts.file);
      db.purgeDeleted();
      // No reply runs before the store opens: one left streaming was cut by a crash (a partial index finds it).
      db.interruptStreaming();
      if (this.opts.legacyDir) importJournals(db, this.opts.legacyDir, this.log);
      this.chatDb = db;
      return db;
    } catch (e) {
      this.log.error('chat database unavailable', { message: String((e as Error).message) });
      throw storageError(e, this.opts.file);
    }
  }

  /** Runs a write, turning SQLite failures into errors that say what to do. */
  write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw storageError(e, this.opts.file);
    }
  }

  /** Every conversation, pinned first, then the most recently updated. */
  list(): ConversationMeta[] {
    return this.db.conversations().map(rowToMeta);
  }

  /** A page of the list in the same order, from after `cursor`; `nextCursor` is set while more follow. */
  page(
    cursor: ChatListCursor | undefined,
    limit: number,
  ): { conversations: ConversationMeta[]; nextCursor?: ChatListCursor } {
    const rows = this.db.conversationPage(cursor, limit + 1);
    const conversations = rows.slice(0, limit).map(rowToMeta);
    const last = rows.length > limit ? conversations.at(-1) : undefined;
    return last
      ? { conversations, nextCursor: { pinned: last.pinned, updatedAt: last.updatedAt, id: last.id } }
      : { conversations };
  }

  meta(id: string): ConversationMeta {
    const cached = this.open.get(id);
    if (cached) return cached.meta;
    const row = this.db.conversation(id);
    if (!row || row.deleted_at)
      throw new AppError('not_found', 'This conversation no longer exists. It may have been deleted.');
    return rowToMeta(row);
  }

  create(init: Partial<ConversationMeta>): ConversationMeta {
    const now = new Date().toISOString();
    const meta: ConversationMeta = conversationMetaSchema.parse({
      title: DEFAULT_TITLE,
      backend: 'ollama',
      model: '',
      provider: 'auto',
      system: '',
      params: {},
      webSearch: false,
      pinned: false,
      ...init,
      id: newId('c'),
      createdAt: now,
      updatedAt: now,
      messageCount: 0,
    });
    this.write(() => this.db.tx(() => this.db.insertConversation({ ...metaColumns(meta, null), created_at: now })));
    return meta;
  }

  /** Opens a conversation (once; later calls share it). Reads no messages: see Conversation.window. */
  get(id: string): Conversation {
    const cached = this.open.get(id);
    if (cached) return cached;
    const row = this.db.conversation(id);
    if (!row || row.deleted_at)
      throw new AppError('not_found', 'This conversation no longer exists. It may have been deleted.');
    const leaf = row.leaf_id && this.db.message(row.leaf_id, id) ? row.leaf_id : this.db.lastMessageId(id);
    const conv = new Conversation(rowToMeta(row), leaf, this.db);
    this.open.set(id, conv);
    return conv;
  }

  update(id: string, patch: Partial<ConversationMeta>): ConversationMeta {
    const conv = this.get(id);
    const imported = conv.meta.importedToolSources;
    // Turning on a source an imported file had on is the user's choice: it is no longer "from the imported file".
    if (patch.toolSources && imported) {
      const off = imported.filter((s) => !patch.toolSources!.includes(s));
      patch = { ...patch, importedToolSources: off.length ? off : undefined };
    }
    this.write(() => conv.touch(patch));
    return conv.meta;
  }

  delete(id: string): void {
    this.meta(id);
    const conv = this.open.get(id);
    if (conv) conv.closed = true;
    this.open.delete(id);
    this.write(() => this.db.tx(() => this.db.softDelete(id, new Date().toISOString())));
  }

  restore(id: string): ConversationMeta {
    const row = this.db.conversation(id);
    if (!row?.deleted_at) throw new AppError('not_found', 'This conversation can no longer be restored.');
    this.write(() => this.db.tx(() => this.db.softDelete(id, null)));
    return rowToMeta(row);
  }

  /** The whole tree: every version of every message, and the one shown (see conversationExportSchema). */
  exportJson(id: string): ConversationTreeExport {
    const meta = this.meta(id);
    const rows = this.db.messages(id);
    // The leaf get() opens at, found among the rows read (the path is not read a second time).
    const leaf = this.db.conversation(id)?.leaf_id;
    const leafId = rows.some((r) => r.id === leaf) ? leaf! : (rows.at(-1)?.id ?? null);
    const messages = rows.map((r) => ({ ...rowToMessage(r), parentId: r.parent_id }));
    return { format: 'hubdesk.conversation', version: 2, meta, leafId, messages };
  }

  /** One conversation's export (see importFile). */
  import(text: string, asCopy = false): ConversationMeta {
    const list = parseImportFile(text);
    if (list.length !== 1)
      throw new AppError('invalid_input', 'This file holds several conversations: import it as an archive.');
    return this.insertAll(list, asCopy)[0];
  }

  /**
   * A conversation or an "Export all" archive: validated as a whole first, then written in one transaction. One
   * already here (see alreadyHere) is refused with `conflict` unless `asCopy`.
   */
  importFile(text: string, asCopy = false): ConversationMeta[] {
    return this.insertAll(parseImportFile(text), asCopy);
  }

  /** Everything that is not deleted, as one archive. */
  exportAll(): ConversationArchive {
    const conversations = this.list().map((m) => this.exportJson(m.id));
    return { format: 'hubdesk.conversations', version: 2, exportedAt: new Date().toISOString(), conversations };
  }

  /** The conversation a file's conversation already is here: the one it was exported from, or an earlier import. */
  private alreadyHere(c: ImportedConversation): { id: string; title: string; imported: boolean } | undefined {
    const original = this.db.conversation(c.meta.id);
    const row = original && !original.deleted_at ? original : this.db.importedAs(c.fingerprint);
    if (!row) return undefined;
    return { id: row.id, title: row.title, imported: rowToMeta(row).importFingerprint !== undefined };
  }

  private insertAll(list: ImportedConversation[], asCopy: boolean): ConversationMeta[] {
    const duplicates = asCopy ? [] : list.flatMap((c) => this.alreadyHere(c) ?? []);
    if (duplicates.length) {
      const [one] = duplicates;
      throw new AppError(
        'conflict',
        duplicates.length === 1
          ? `This conversation is already ${one.imported ? 'imported' : 'here'} as “${one.title}”.`
          : `${duplicates.length} of these conversations are already here: ${duplicates.map((d) => `“${d.title}”`).join(', ')}.`,
        { details: { duplicates: duplicates.map(({ id, title }) => ({ id, title })) } },
      );
    }
    const taken = (mid: string) => this.db.db.prepare('SELECT 1 FROM messages WHERE id = ?').get(mid) !== undefined;
    return this.write(() =>
      this.db.tx(() =>
        list.map((c) => {
          // A copy (or ids this database already holds) gets fresh ids throughout; inside the transaction the check
          // also sees the conversations of this file written before it.
          const copy = this.db.conversation(c.meta.id) !== undefined || c.messages.some((m) => taken(m.id));
          const fresh = new Map(copy ? c.messages.map((m) => [m.id, newId('m')]) : []);
          const idOf = (mid: string) => fresh.get(mid) ?? mid;
          const meta: ConversationMeta = {
            ...c.meta,
            id: copy ? newId('c') : c.meta.id,
            importFingerprint: c.fingerprint,
          };
          const messages = c.messages.map((m) => ({
            ...m,
            id: idOf(m.id),
            parentId: m.parentId && idOf(m.parentId),
          }));
          insertTree(this.db, meta, messages, c.leafId && idOf(c.leafId));
          return meta;
        }),
      ),
    );
  }

  close(): void {
    this.open.clear();
    this.chatDb?.close();
    this.chatDb = undefined;
  }
}
