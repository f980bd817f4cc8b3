import {
  conversationMetaSchema,
  type ChatListCursor,
  type ChatMessage,
  type ConversationArchive,
  type ConversationExport,
  type ConversationMeta,
} from '@shared/contract/chat';
import { AppError } from '@shared/errors';
import type { Logger } from '../log';
import { Conversation } from './conversation';
import { ChatDb } from './db';
import { parseImportFile } from './import-file';
import { importJournals } from './legacy-import';
import { storageError } from './storage-error';
import { DEFAULT_TITLE, insertLinear, metaColumns, newId, rowToMeta } from './rows';

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

  exportJson(id: string): ConversationExport {
    const conv = this.get(id);
    return { format: 'hubdesk.conversation', version: 1, meta: conv.meta, messages: conv.messages };
  }

  /** One conversation's export (see importFile). */
  import(text: string): ConversationMeta {
    const list = parseImportFile(text);
    if (list.length !== 1)
      throw new AppError('invalid_input', 'This file holds several conversations: import it as an archive.');
    return this.insertAll(list)[0];
  }

  /** A conversation or an "Export all" archive: validated as a whole first, then written in one transaction. */
  importFile(text: string): ConversationMeta[] {
    return this.insertAll(parseImportFile(text));
  }

  /** Everything that is not deleted, as one archive. */
  exportAll(): ConversationArchive {
    const conversations = this.list().map((m) => this.exportJson(m.id));
    return { format: 'hubdesk.conversations', version: 1, exportedAt: new Date().toISOString(), conversations };
  }

  private insertAll(list: ConversationExport[]): ConversationMeta[] {
    const taken = (mid: string) => this.db.db.prepare('SELECT 1 FROM messages WHERE id = ?').get(mid) !== undefined;
    return this.write(() =>
      this.db.tx(() =>
        list.map((exp) => {
          // Importing a conversation twice (or one that is still here) makes a copy with fresh ids; inside the
          // transaction the check also sees the conversations of this file written before it.
          const copy = this.db.conversation(exp.meta.id) !== undefined || exp.messages.some((m) => taken(m.id));
          const id = copy ? newId('c') : exp.meta.id;
          const meta: ConversationMeta = { ...exp.meta, id, messageCount: exp.messages.length };
          const messages: ChatMessage[] = exp.messages.map((m) => (copy ? { ...m, id: newId('m') } : m));
          insertLinear(this.db, meta, messages);
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
