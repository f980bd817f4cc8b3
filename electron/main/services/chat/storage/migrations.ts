/**
 * The triggers that keep an external-content FTS5 table in step with its table, as the first schema wrote them
 * for messages and titles (the text is what sqlite_master holds: keep it as it is).
 */
const ftsTriggers = (table: string, fts: string, column: string) =>
  `CREATE TRIGGER ${table}_ai AFTER INSERT ON ${table} BEGIN
     INSERT INTO ${fts}(rowid, ${column}) VALUES (new.seq, new.${column});
   END;
   CREATE TRIGGER ${table}_ad AFTER DELETE ON ${table} BEGIN
     INSERT INTO ${fts}(${fts}, rowid, ${column}) VALUES ('delete', old.seq, old.${column});
   END;
   CREATE TRIGGER ${table}_au AFTER UPDATE OF ${column} ON ${table} BEGIN
     INSERT INTO ${fts}(${fts}, rowid, ${column}) VALUES ('delete', old.seq, old.${column});
     INSERT INTO ${fts}(rowid, ${column}) VALUES (new.seq, new.${column});
   END;`;

/**
 * The chat database's schema, as migrations: each entry upgrades `user_version` i → i+1, inside one transaction
 * (db-open.ts runs them). Never edit a released entry: add one. Every schema has a fixture database under
 * tests/fixtures/chat-db/ that must migrate to the current one.
 */
export const MIGRATIONS: string[] = [
  `CREATE TABLE conversations (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     title TEXT NOT NULL,
     meta TEXT NOT NULL,
     leaf_id TEXT,
     pinned INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     deleted_at TEXT
   );
   CREATE TABLE messages (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
     parent_id TEXT,
     role TEXT NOT NULL,
     content TEXT NOT NULL,
     thinking TEXT,
     status TEXT NOT NULL,
     extra TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX messages_by_conversation ON messages(conversation_id, seq);
   CREATE INDEX messages_by_parent ON messages(parent_id);
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='seq',
     tokenize='unicode61 remove_diacritics 2', prefix='2 3');
   CREATE VIRTUAL TABLE titles_fts USING fts5(title, content='conversations', content_rowid='seq',
     tokenize='unicode61 remove_diacritics 2');
   ${ftsTriggers('messages', 'messages_fts', 'content')}
   ${ftsTriggers('conversations', 'titles_fts', 'title')}`,
  // Opening reads a window of the path, not the whole tree: versions (siblings) are looked up per conversation
  // and parent, roots included; a reply left streaming is found without a scan.
  // Each saved message is one fsync'd commit, kept small: the message index is updated in batches after the
  // commit (fts_pending, filled by the triggers in the same transaction, so a crash loses no indexing; `old` is
  // the text the index holds for that row, NULL if it holds none yet), and the title is re-indexed only when
  // it changed.
  `DROP INDEX messages_by_parent;
   DROP INDEX messages_by_conversation;
   CREATE INDEX messages_by_conversation_parent ON messages(conversation_id, parent_id);
   CREATE INDEX messages_streaming ON messages(status) WHERE status = 'streaming';
   CREATE TABLE fts_pending (seq INTEGER PRIMARY KEY, old TEXT);
   DROP TRIGGER messages_ai;
   DROP TRIGGER messages_ad;
   DROP TRIGGER messages_au;
   CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
     INSERT OR IGNORE INTO fts_pending(seq, old) VALUES (new.seq, NULL);
   END;
   CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
     INSERT OR IGNORE INTO fts_pending(seq, old) VALUES (old.seq, old.content);
   END;
   CREATE TRIGGER messages_au AFTER UPDATE OF content ON messages BEGIN
     INSERT OR IGNORE INTO fts_pending(seq, old) VALUES (old.seq, old.content);
   END;
   DROP TRIGGER conversations_au;
   CREATE TRIGGER conversations_au AFTER UPDATE OF title ON conversations WHEN old.title IS NOT new.title BEGIN
     INSERT INTO titles_fts(titles_fts, rowid, title) VALUES ('delete', old.seq, old.title);
     INSERT INTO titles_fts(rowid, title) VALUES (new.seq, new.title);
   END;`,
  // The conversation list is read a page at a time in the sidebar's order (ChatStore.page): the index holds that
  // order, so a page reads its own rows instead of sorting every conversation.
  `CREATE INDEX conversations_by_list ON conversations(pinned DESC, updated_at DESC, id DESC) WHERE deleted_at IS NULL;`,
  // Compare (services/compare/store.ts): each comparison whole as JSON, with the short columns "Recent comparisons"
  // lists and the vote apart (written later, once); a blind vote's outcome per pane, by machine, for the
  // scoreboard (kept when the comparison is deleted); and the saved sets, their names unique.
  `CREATE TABLE compare_runs (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     prompt TEXT NOT NULL,
     blind INTEGER NOT NULL,
     labels TEXT NOT NULL,
     names TEXT NOT NULL,
     run TEXT NOT NULL,
     vote TEXT
   );
   CREATE INDEX compare_runs_by_time ON compare_runs(created_at DESC, seq DESC);
   CREATE TABLE compare_scores (
     seq INTEGER PRIMARY KEY,
     run_id TEXT NOT NULL,
     machine TEXT NOT NULL,
     backend TEXT NOT NULL,
     label TEXT NOT NULL,
     model TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'tie')),
     at TEXT NOT NULL
   );
   CREATE INDEX compare_scores_by_machine ON compare_scores(machine);
   CREATE TABLE compare_sets (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL UNIQUE COLLATE NOCASE,
     body TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );`,
  // Documents (services/documents/index-store.ts): knowledge bases (a conversation's own, or named), what was
  // attached, the files found there and their chunks, with an FTS5 index over the chunk text kept by triggers.
  // Chunk ids are never reused (AUTOINCREMENT): a citation kept on a message never points at another passage.
  // Vectors live in one table per embedder (doc_embedders), created when its first vector arrives since the
  // dimension is the model's; their rows go with their chunks (ON DELETE CASCADE).
  `CREATE TABLE doc_bases (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     conversation TEXT UNIQUE,
     created_at TEXT NOT NULL
   );
   CREATE TABLE doc_sources (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     base_id TEXT NOT NULL REFERENCES doc_bases(id) ON DELETE CASCADE,
     kind TEXT NOT NULL CHECK (kind IN ('file', 'folder', 'upload')),
     path TEXT NOT NULL
   );
   CREATE INDEX doc_sources_by_base ON doc_sources(base_id);
   CREATE TABLE doc_documents (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     base_id TEXT NOT NULL REFERENCES doc_bases(id) ON DELETE CASCADE,
     source_id TEXT NOT NULL REFERENCES doc_sources(id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     file TEXT NOT NULL,
     path TEXT NOT NULL,
     kind TEXT,
     size_bytes INTEGER NOT NULL,
     mtime_ms REAL NOT NULL,
     state TEXT NOT NULL,
     error TEXT,
     pinned INTEGER NOT NULL DEFAULT 0,
     pages INTEGER,
     tokens INTEGER NOT NULL DEFAULT 0,
     UNIQUE (source_id, file)
   );
   CREATE INDEX doc_documents_by_base ON doc_documents(base_id, seq);
   CREATE TABLE doc_chunks (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     document_id TEXT NOT NULL REFERENCES doc_documents(id) ON DELETE CASCADE,
     ord INTEGER NOT NULL,
     text TEXT NOT NULL,
     headings TEXT NOT NULL,
     page INTEGER,
     start INTEGER NOT NULL,
     end INTEGER NOT NULL,
     tokens INTEGER NOT NULL
   );
   CREATE INDEX doc_chunks_by_document ON doc_chunks(document_id, ord);
   CREATE VIRTUAL TABLE doc_chunks_fts USING fts5(text, content='doc_chunks', content_rowid='seq',
     tokenize='unicode61 remove_diacritics 2');
   ${ftsTriggers('doc_chunks', 'doc_chunks_fts', 'text')}
   CREATE TABLE doc_embedders (
     key TEXT PRIMARY KEY,
     tbl TEXT NOT NULL UNIQUE,
     dim INTEGER NOT NULL
   );`,
];
