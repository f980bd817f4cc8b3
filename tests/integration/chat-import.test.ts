import { WEB_TOOLS } from '@shared/contract/chat-conversation';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal, replay } from '../../electron/main/services/chat/storage/journal';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/** Journals written by the previous version's store (meta.json + journal.jsonl, one with a torn last line). */
const fixture = resolve(import.meta.dirname, '../fixtures/chat-journals/chats');

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of readdirSync(dir))
    for (const f of readdirSync(join(dir, c))) out[`${c}/${f}`] = readFileSync(join(dir, c, f), 'utf8');
  return out;
}

describe('first start imports the JSONL journals of earlier versions', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });
  const start = async (prepare: (chats: string) => void): Promise<TestApp & { chats: string }> => {
    const d = tempDir('hubdesk-import-');
    cleanup.push(() => d.remove());
    const chats = join(d.path, 'chats');
    cpSync(fixture, chats, { recursive: true });
    prepare(chats);
    const app = await startTestApp({ dataDir: d.path });
    cleanup.push(() => app.close());
    return { ...app, chats };
  };

  it('every conversation arrives exactly as the journal replays; the journals are kept as a backup', async () => {
    const app = await start(() => {});
    const before = snapshot(app.chats);
    const { conversations } = await app.client.call('chat.list', {});
    expect(conversations).toHaveLength(2);
    // Pinned first, as before.
    expect(conversations[0]).toMatchObject({ title: 'Router chat', pinned: true, backend: 'provider' });
    for (const meta of conversations) {
      const dir = join(`${app.chats}.journal-backup`, meta.id);
      const expected = replay(readJournal(join(dir, 'journal.jsonl')).records).map((m) =>
        m.status === 'streaming' ? { ...m, status: 'interrupted' } : m,
      );
      const got = await app.client.call('chat.get', { id: meta.id });
      expect(got.messages).toEqual(expected);
      const { webSearch, ...oldMeta } = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      // The old web-search switch became the web tool source.
      expect(got.meta).toEqual({
        ...oldMeta,
        toolSources: webSearch ? [WEB_TOOLS] : [],
        toolsAllowed: [],
        messageCount: expected.length,
      });
    }
    const first = await app.client.call('chat.get', { id: conversations[1].id });
    // The reply that was streaming when the old version stopped: its checkpoints, marked interrupted.
    expect(first.messages.at(-1)).toMatchObject({ content: 'Quantization reduces precision', status: 'interrupted' });
    expect(first.messages[3].toolCalls).toEqual([{ name: 'web_search', arguments: { query: 'quantization' } }]);
    // The journals were only read: the backup holds them byte for byte, and the old folder is gone.
    expect(existsSync(app.chats)).toBe(false);
    expect(snapshot(`${app.chats}.journal-backup`)).toEqual(before);
    // Exporting and importing it into the app again (as a copy: it is still here) round-trips.
    const exp = await app.client.call('chat.export', { id: conversations[1].id, format: 'json' });
    const again = await app.client.call('chat.import', { text: exp.text, asCopy: true });
    const copy = await app.client.call('chat.get', { id: again.id });
    expect(copy.messages.map((m) => m.content)).toEqual(first.messages.map((m) => m.content));
  });

  it('a journal that cannot be read stays in place (with the rest imported) and is retried next start', async () => {
    let broken = '';
    const app = await start((chats) => {
      broken = readdirSync(chats)[0];
      writeFileSync(join(chats, broken, 'meta.json'), '{"id": "c_x", "title": 3');
    });
    const { conversations } = await app.client.call('chat.list', {});
    expect(conversations).toHaveLength(1);
    expect(conversations[0].id).not.toBe(broken);
    expect(existsSync(join(app.chats, broken, 'journal.jsonl'))).toBe(true);
    expect(existsSync(`${app.chats}.journal-backup`)).toBe(false);
    // The user (or a fix) restores the metadata; the next start imports the rest and only then backs up.
    await app.close();
    cpSync(join(fixture, broken, 'meta.json'), join(app.chats, broken, 'meta.json'));
    const next = await startTestApp({ dataDir: join(app.chats, '..') });
    cleanup.push(() => next.close());
    expect((await next.client.call('chat.list', {})).conversations).toHaveLength(2);
    expect(existsSync(`${app.chats}.journal-backup`)).toBe(true);
  });
});
