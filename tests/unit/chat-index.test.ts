import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatDb } from '../../electron/main/services/chat/storage/db';
import { searchChats } from '../../electron/main/services/chat/storage/search';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { createLogger } from '../../electron/main/services/log';
import { tempDir } from '../helpers/app';

const msg = (id: string, content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  role: 'user',
  content,
  status: 'complete',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/** FTS5's own check that the index holds exactly the text of the messages table. */
const indexMatches = (db: ChatDb) =>
  expect(() => db.db.exec(`INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')`)).not.toThrow();
const found = (db: ChatDb, q: string) => searchChats(db, q).flatMap((r) => r.hits.map((h) => h.messageId));

/** Saving a message commits it alone (small, fsync'd); the search index catches up in batches after it. */
describe('chat store: the message index follows every write', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  const store = () => {
    const d = tempDir('hubdesk-index-');
    dirs.push(d);
    return { at: d.path, s: new ChatStore({ file: join(d.path, 'chats.sqlite') }, createLogger()) };
  };

  it('new, streamed, replaced and edited messages are found by their current text only', () => {
    const { s } = store();
    const c = s.get(s.create({ model: 'm' }).id);
    c.put(msg('m_1', 'walrus question'));
    c.put(msg('m_2', '', { role: 'assistant', status: 'streaming' }));
    expect(found(s.db, 'walrus')).toEqual(['m_1']);
    c.append('m_2', 'narwhal ', '');
    expect(found(s.db, 'narwhal')).toEqual(['m_2']);
    c.append('m_2', 'tusks', '');
    c.put(msg('m_2', 'narwhal tusks, final', { role: 'assistant' }));
    expect(found(s.db, 'final')).toEqual(['m_2']);
    const edited = c.saveAsVersion('m_1', 'penguin question');
    // The earlier text lives on as a version (a sibling): both are messages, each found by its own words.
    expect(found(s.db, 'penguin')).toEqual([edited.id]);
    expect(found(s.db, 'walrus')).toEqual(['m_1']);
    indexMatches(s.db);
    s.close();
  });

  it('writes not yet indexed when the process dies are indexed after the restart', () => {
    const { at, s } = store();
    const c = s.get(s.create({ model: 'm' }).id);
    c.put(msg('m_1', 'albatross'));
    s.db.indexPending();
    c.put(msg('m_2', 'cormorant'));
    c.append('m_2', ' heron', '');
    // A copy of the files as they are now (the index has not caught up): what a kill would leave behind.
    const crashed = join(at, 'crashed.sqlite');
    copyFileSync(join(at, 'chats.sqlite'), crashed);
    if (existsSync(join(at, 'chats.sqlite-wal'))) copyFileSync(join(at, 'chats.sqlite-wal'), `${crashed}-wal`);
    expect(s.db.db.prepare('SELECT count(*) AS n FROM fts_pending').get()).toMatchObject({ n: 1 });
    s.close();
    const after = new ChatStore({ file: crashed }, createLogger());
    expect(found(after.db, 'heron')).toEqual(['m_2']);
    expect(found(after.db, 'albatross')).toEqual(['m_1']);
    indexMatches(after.db);
    after.close();
  });

  it('deleted conversations leave the index when purged', () => {
    const { at, s } = store();
    const { id } = s.create({ model: 'm' });
    s.get(id).put(msg('m_1', 'pelican'));
    s.delete(id);
    s.close();
    const again = new ChatStore({ file: join(at, 'chats.sqlite') }, createLogger());
    expect(found(again.db, 'pelican')).toEqual([]);
    // The index itself no longer holds the word (not only the join to the purged rows hides it).
    expect(again.db.db.prepare(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'pelican'`).all()).toEqual([]);
    indexMatches(again.db);
    again.close();
  });
});
