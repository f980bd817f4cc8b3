import {
  conversationExportSchema,
  conversationMetaSchema,
  type ChatMessage,
  type ConversationExport,
  type ConversationMeta,
} from '@shared/contract/chat';
import { AppError } from '@shared/errors';
import type { Logger } from '../log';
import { Conversation } from './conversation';
import { ChatDb } from './db';
import { importJournals } from './legacy-import';
import { storageError } from './storage-error';
import { DEFAULT_TITLE, insertLinear, metaColumns, newId, rowToMeta } from './rows';

export { DEFAULT_TITLE, newId } from './rows';
export { storageError } from './storage-error';
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

  list(query?: string): ConversationMeta[] {
    const q = query?.trim().toLowerCase();
    return this.db
      .conversations()
      .map(rowToMeta)
      .filter((m) => !q || m.title.toLowerCase().includes(q) || m.model.toLowerCase().includes(q))
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt.localeCompare(a.updatedAt));
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

  /** Opens a conversation (once; later calls share it). */
  get(id: string): Conversation {
    const cached = this.open.get(id);
    if (cached) return cached;
    const row = this.db.conversation(id);
    if (!row || row.deleted_at)
      throw new AppError('not_found', 'This conversation no longer exists. It may have been deleted.');
    const conv = new Conversation(rowToMeta(row), this.db.messages(id), row.leaf_id, this.db);
    this.interruptStreaming(conv);
    this.open.set(id, conv);
    return conv;
  }

  /** A reply that was streaming when the app stopped keeps what had been checkpointed, marked "interrupted". */
  private interruptStreaming(conv: Conversation): void {
    for (const m of conv.messages)
      if (m.status === 'streaming') this.write(() => conv.put({ ...m, status: 'interrupted' }));
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

  /** Validates the whole file first, then writes it in one transaction: a bad file changes nothing. */
  import(text: string): ConversationMeta {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new AppError('invalid_input', `This file is not JSON: ${(e as Error).message}`);
    }
    const parsed = conversationExportSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
      throw new AppError('invalid_input', `This is not a HubDesk conversation export: ${issue.message}${where}.`, {
        details: {
          issues: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.map(String), message: i.message })),
        },
      });
    }
    const ids = new Set<string>();
    for (const m of parsed.data.messages) {
      if (ids.has(m.id)) throw new AppError('invalid_input', `This export repeats message id ${m.id}.`);
      ids.add(m.id);
    }
    const taken = (mid: string) => this.db.db.prepare('SELECT 1 FROM messages WHERE id = ?').get(mid) !== undefined;
    // Importing a conversation twice (or one that is still here) makes a copy with fresh ids.
    const copy =
      this.db.conversation(parsed.data.meta.id) !== undefined || parsed.data.messages.some((m) => taken(m.id));
    const id = copy ? newId('c') : parsed.data.meta.id;
    const meta: ConversationMeta = { ...parsed.data.meta, id, messageCount: parsed.data.messages.length };
    const messages: ChatMessage[] = parsed.data.messages.map((m) => (copy ? { ...m, id: newId('m') } : m));
    this.write(() => insertLinear(this.db, meta, messages));
    return meta;
  }

  close(): void {
    this.open.clear();
    this.chatDb?.close();
    this.chatDb = undefined;
  }
}
