import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { TreeMessage } from '@shared/contract/chat-export';
import Database from 'libsql';
import { ChatDb } from '../../electron/main/services/chat/storage/db';
import { SCHEMA_VERSION, openDb, userVersion } from '../../electron/main/services/chat/storage/db-open';
import { MIGRATIONS } from '../../electron/main/services/chat/storage/migrations';
import { LocalKind } from '../../electron/main/services/engines/local/kind';
import { toMarkdown } from '../../electron/main/services/chat/files/export-format';
import { searchChats } from '../../electron/main/services/chat/storage/search';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { createLogger } from '../../electron/main/services/log';
import { SCHEMA_1, writeSchema1 } from '../fixtures/chat-db/schema-1';
import { tempDir } from '../helpers/app';

const msg = (id: string, content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  role: 'user',
  content,
  status: 'complete',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('chat store (SQLite)', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  const dir = () => {
    const d = tempDir('hubdesk-store-');
    dirs.push(d);
    return d.path;
  };
  const store = (at = dir()) => new ChatStore({ file: join(at, 'chats.sqlite') }, createLogger());

  it('export → import is lossless; the import is a new conversation when the id exists', () => {
    const s = store();
    const meta = s.create({ model: 'llama3.2', system: 'sys', params: { temperature: 0.5, stop: ['x'] } });
    const conv = s.get(meta.id);
    conv.put(msg('m_1', 'Hello **world**', { images: ['aGk='] }));
    conv.put(
      msg('m_2', 'Hi', { role: 'assistant', thinking: 'hmm', figures: { evalTokens: 3, tokensPerSecond: 12.5 } }),
    );
    conv.put(msg('m_3', 'partial', { role: 'assistant', status: 'stopped' }));
    conv.put(
      msg('m_4', 'Error: x', {
        role: 'tool',
        toolName: 'web_search',
        status: 'error',
        error: { code: 'invalid_input', message: 'Query is required' },
      }),
    );
    const exported = s.exportJson(meta.id);
    const text = JSON.stringify(exported);
    // It is still here: imported again only as a copy.
    expect(() => s.import(text)).toThrow(/already here/);
    const imported = s.import(text, true);
    expect(imported.id).not.toBe(meta.id);
    const back = s.exportJson(imported.id);
    expect(back.messages.map((m) => m.content)).toEqual(exported.messages.map((m) => m.content));
    // Fresh ids, the same chain.
    expect(back.messages.map((m, i) => m.parentId === (back.messages[i - 1]?.id ?? null))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(back.messages.map(({ id: _, parentId: __, ...m }) => m)).toEqual(
      JSON.parse(text).messages.map(({ id: _, parentId: __, ...m }: TreeMessage) => m),
    );

    // Into a fresh store (another machine): same ids, identical export.
    const other = store();
    const same = other.import(text);
    expect(same.id).toBe(meta.id);
    const { importFingerprint, ...otherMeta } = other.exportJson(meta.id).meta;
    expect({ ...other.exportJson(meta.id), meta: otherMeta }).toEqual(JSON.parse(text));
    expect(importFingerprint).toEqual(expect.any(String));
    expect(toMarkdown(exported, 'Ollama')).toContain('## Assistant (stopped)');
  });

  it('exported Markdown keeps what the model wrote as text, never as live HTML', () => {
    const s = store();
    const meta = s.create({ model: 'llama3.2', system: '<style>body{display:none}</style>' });
    const conv = s.get(meta.id);
    conv.put(msg('m_1', 'Show <b>bold</b>'));
    conv.put(
      msg('m_2', 'Here: <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n```html\n<b>kept</b>\n```', {
        role: 'assistant',
        thinking: '<iframe src="https://evil.example">',
      }),
    );
    const md = toMarkdown(s.exportJson(meta.id), 'Ollama');
    for (const live of ['<script', '<img', '<style', '<iframe', '<b>bold']) expect(md).not.toContain(live);
    expect(md).toContain('&lt;script>alert(1)&lt;/script>');
    expect(md).toContain('```html\n<b>kept</b>\n```');
    expect(md).toContain('<details><summary>Thinking</summary>');
  });

  it('exported Markdown names the engine, the built-in one included', () => {
    const s = store();
    const meta = s.create({ model: 'org/tiny/tiny-Q4_K_M.gguf', backend: 'local' });
    const exp = s.exportJson(meta.id);
    expect(toMarkdown(exp, new LocalKind(undefined).exportName())).toContain('(built-in llama.cpp engine)');
  });

  it('a malformed import is refused with the reason and changes nothing', () => {
    const s = store();
    s.create({ model: 'llama3.2' });
    expect(() => s.import('{not json')).toThrow(/not JSON/);
    expect(() => s.import(JSON.stringify({ format: 'other' }))).toThrow(/not a HubDesk conversation export/);
    const bad = s.exportJson(s.list()[0].id);
    const wrong = { ...bad, messages: [{ ...msg('m_1', 'x'), role: 'robot' }] };
    expect(() => s.import(JSON.stringify(wrong))).toThrow(/messages\.0\.role/);
    const dup = { ...bad, messages: [msg('m_1', 'x'), msg('m_1', 'y')].map((m) => ({ ...m, parentId: null })) };
    expect(() => s.import(JSON.stringify(dup))).toThrow(/repeats message id/);
    expect(s.list()).toHaveLength(1);
    expect(s.db.db.prepare('SELECT count(*) AS n FROM messages').get()).toMatchObject({ n: 0 });
  });

  it('delete hides and restore brings it back; the next start purges; list sorts pinned first', () => {
    const at = dir();
    const s = store(at);
    const a = s.create({ title: 'Alpha talk', model: 'm1' });
    const b = s.create({ title: 'Beta talk', model: 'm2' });
    s.update(a.id, { pinned: true });
    expect(s.list().map((m) => m.title)).toEqual(['Alpha talk', 'Beta talk']);
    const first = s.page(undefined, 1);
    expect(first.conversations.map((m) => m.id)).toEqual([a.id]);
    expect(s.page(first.nextCursor, 1)).toEqual({ conversations: [s.meta(b.id)] });
    s.get(b.id).put(msg('m_1', 'kept'));
    s.delete(b.id);
    expect(s.list().map((m) => m.id)).toEqual([a.id]);
    expect(() => s.get(b.id)).toThrow(/no longer exists/);
    s.restore(b.id);
    expect(s.get(b.id).messages.map((m) => m.content)).toEqual(['kept']);
    s.delete(b.id);
    s.close();
    const s2 = store(at);
    expect(s2.list().map((m) => m.id)).toEqual([a.id]);
    expect(() => s2.restore(b.id)).toThrow(/can no longer be restored/);
  });

  it('titles a new conversation from its first message; a reply left streaming reopens as interrupted', () => {
    const at = dir();
    const s1 = store(at);
    const meta = s1.create({ model: 'm' });
    const c = s1.get(meta.id);
    c.put(msg('m_1', 'What is   the capital of France?'));
    c.put(msg('m_2', '', { role: 'assistant', status: 'streaming' }));
    c.append('m_2', 'Par', '');
    c.append('m_2', 'is', 'hm');
    s1.close();
    const s2 = store(at);
    expect(s2.meta(meta.id).title).toBe('What is the capital of France?');
    expect(s2.get(meta.id).messages[1]).toMatchObject({ content: 'Paris', thinking: 'hm', status: 'interrupted' });
  });

  it('versions: branching keeps earlier replies as siblings, select switches the path, edit keeps the old text', () => {
    const at = dir();
    const s = store(at);
    const { id } = s.create({ model: 'm' });
    const c = s.get(id);
    c.put(msg('m_1', 'q1'));
    c.put(msg('m_2', 'a1', { role: 'assistant' }));
    c.put(msg('m_3', 'q2'));
    c.put(msg('m_4', 'a2 first', { role: 'assistant' }));
    c.branchBefore('m_4');
    c.put(msg('m_5', 'a2 second', { role: 'assistant' }));
    expect(c.messages.map((m) => m.id)).toEqual(['m_1', 'm_2', 'm_3', 'm_5']);
    expect(c.versions()).toEqual({ m_5: ['m_4', 'm_5'] });
    c.select('m_4');
    expect(c.messages.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2 first']);
    // An edited question branches from its parent: the old question and its answers stay a version.
    c.branchBefore('m_3');
    c.put(msg('m_6', 'q2 edited', { createdAt: '2026-01-02T00:00:00.000Z' }));
    expect(c.versions()).toEqual({ m_6: ['m_3', 'm_6'] });
    c.select('m_3');
    // Back on the old question, the path continues to its latest answer.
    expect(c.messages.map((m) => m.id)).toEqual(['m_1', 'm_2', 'm_3', 'm_5']);
    // "Save" (no regenerate) makes a new version with no reply yet; the old one keeps its replies.
    const edited = c.saveAsVersion('m_1', 'q1 fixed');
    expect(edited.content).toBe('q1 fixed');
    expect(c.messages.map((m) => m.id)).toEqual([edited.id]);
    expect(c.versions()).toEqual({ [edited.id]: ['m_1', edited.id] });
    expect(c.meta.messageCount).toBe(1);
    s.close();
    // All of it is on disk: reopen and find the same path and versions.
    const s2 = store(at);
    const c2 = s2.get(id);
    expect(c2.messages.map((m) => m.content)).toEqual(['q1 fixed']);
    c2.select('m_3');
    expect(c2.messages.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2 second']);
    expect(c2.versions().m_5).toEqual(['m_4', 'm_5']);
    expect(c2.meta.messageCount).toBe(4);
  });

  it('a damaged database is reported with what to do and left untouched', () => {
    const at = dir();
    const file = join(at, 'chats.sqlite');
    writeFileSync(file, 'this is not a database '.repeat(400));
    const before = readFileSync(file);
    const s = store(at);
    expect(() => s.list()).toThrow(/chat database .* is damaged/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a database from a newer HubDesk is refused and left untouched', () => {
    const at = dir();
    const file = join(at, 'chats.sqlite');
    const db = openDb(file);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => store(at).list()).toThrow(/newer HubDesk .* Update HubDesk/);
    const again = openDb(file, [...MIGRATIONS, 'SELECT 1']);
    expect(userVersion(again)).toBe(MIGRATIONS.length + 1);
    again.close();
  });

  it('a migration that fails halfway leaves the database at its previous schema with its data', () => {
    const at = dir();
    const file = join(at, 'chats.sqlite');
    const s = store(at);
    const { id } = s.create({ title: 'kept', model: 'm' });
    s.get(id).put(msg('m_1', 'still here'));
    s.close();
    const broken = [...MIGRATIONS, 'ALTER TABLE messages ADD COLUMN extra2 TEXT; THIS IS NOT SQL;'];
    const [next, now] = [MIGRATIONS.length + 1, MIGRATIONS.length];
    expect(() => new ChatDb(file, broken)).toThrow(new RegExp(`schema ${next} failed .* left at schema ${now}`));
    const db = new ChatDb(file);
    expect(userVersion(db.db)).toBe(now);
    const cols = (db.db.prepare('PRAGMA table_info(messages)').all() as { name: string }[]).map((c) => c.name);
    expect(cols).not.toContain('extra2');
    expect(db.messages(id).map((r) => r.content)).toEqual(['still here']);
    db.close();
  });

  it('a locked database (another writer holds it) is reported as busy, not as damage', () => {
    const at = dir();
    const s = store(at);
    const { id } = s.create({ model: 'm' });
    const other = openDb(join(at, 'chats.sqlite'));
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    s.db.db.pragma('busy_timeout = 50');
    expect(() => s.get(id).put(msg('m_1', 'x'))).toThrow(/busy|in use/);
    other.exec('ROLLBACK');
    other.close();
    s.get(id).put(msg('m_1', 'x'));
    expect(s.get(id).messages).toHaveLength(1);
  });

  it('the schema fixture of every version opens and migrates to the current one, with its data', () => {
    // Schema 0 is an empty file (a first start).
    const at = dir();
    mkdirSync(join(at, 'v0'));
    writeFileSync(join(at, 'v0', 'chats.sqlite'), '');
    expect(store(join(at, 'v0')).list()).toEqual([]);

    // Schema 1: written by the store at schema 1 (tests/fixtures/chat-db/schema-1.ts) and committed.
    const fixture = join(import.meta.dirname, '../fixtures/chat-db/schema-1.sqlite');
    if (process.env.WRITE_CHAT_DB_FIXTURE) writeSchema1(fixture);
    copyFileSync(fixture, join(at, 'chats.sqlite'));
    const raw = new Database(join(at, 'chats.sqlite'));
    expect(userVersion(raw)).toBe(1);
    raw.close();
    const s = store(at);
    expect(userVersion(s.db.db)).toBe(SCHEMA_VERSION);
    const { quant, router } = SCHEMA_1;
    const list = s.list();
    expect(list.map((m) => [m.title, m.pinned, m.messageCount])).toEqual([
      [quant.title, true, 2],
      [router.title, false, 4],
    ]);
    expect(list[0]).toMatchObject({ system: quant.system, params: quant.params, model: 'qwen3:8b' });
    expect(list[1]).toMatchObject({ backend: 'provider', model: 'meta-llama/Llama-3.1-8B-Instruct' });
    const a = s.get(list[0].id);
    expect(a.messages).toEqual(quant.messages);
    expect(a.versions()).toEqual(quant.versions);
    expect(s.write(() => a.select(quant.older.id))).toBe(true);
    expect(a.messages).toEqual([quant.messages[0], quant.older]);
    expect(s.get(list[1].id).messages).toEqual(router.messages);
    // The full-text index came along: a word of a message and a word of a title are found.
    expect(searchChats(s.db, 'k-quant').map((r) => r.meta.id)).toEqual([list[0].id]);
    expect(searchChats(s.db, 'tool').map((r) => r.meta.id)).toEqual([list[1].id]);
    s.close();
  });
});
