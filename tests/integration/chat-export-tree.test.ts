import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView } from '@shared/contract/chat-conversation';
import type { ConversationArchive, ConversationTreeExport } from '@shared/contract/chat-export';
import { importFileText } from '@shared/import-file-text';
import { MAX_IMPORT_CHARS } from '@shared/limits';
import { syntheticExport } from '../fixtures/conversation';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';

/** A view with its message ids renamed (a copy's ids are fresh): what it shows, in the same shape. */
function renamed(v: ConversationView, name: (id: string) => string) {
  return {
    messages: v.messages.map((m) => ({ ...m, id: name(m.id) })),
    versions: Object.fromEntries(Object.entries(v.versions).map(([k, ids]) => [name(k), ids.map(name)])),
  };
}

describe('JSON export carries every version; import restores the tree exactly', () => {
  let ollama: OllamaFixture;
  const apps: TestApp[] = [];
  let n = 0;
  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = (req) => ({ content: tokens(`Answer ${++n} to ${req.messages!.at(-1)!.content}`) });
  });
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
  });
  afterAll(() => ollama?.stop());
  const start = async () => {
    const app = await startTestApp({ env: { OLLAMA_HOST: ollama.url } });
    apps.push(app);
    return app;
  };

  it('3 versions of a question and 4 replies: export → import shows the same tree, every version, as a copy too', async () => {
    const a = await start();
    const { id } = await a.client.call('chat.create', { model: 'llama3.2' });
    const run = (name: 'chat.send' | 'chat.regenerate', input: object) =>
      a.client.stream(name, { id, ...input } as never, () => {}).result;
    await run('chat.send', { content: 'What is GGUF?' });
    await run('chat.regenerate', {});
    const q1 = (await a.client.call('chat.get', { id })).messages[0];
    await run('chat.regenerate', { edit: { messageId: q1.id, content: 'What is GGUF, briefly?' } });
    const q2 = (await a.client.call('chat.get', { id })).messages[0];
    await run('chat.regenerate', { edit: { messageId: q2.id, content: 'GGUF in one line?' } });
    let v = await a.client.call('chat.get', { id });
    expect(v.versions[v.messages[0].id]).toHaveLength(3);
    // The first reply to the first question is the one shown when exporting.
    v = await a.client.call('chat.selectVersion', { id, messageId: q1.id });
    const [firstReply] = v.versions[v.messages[1].id];
    const shown = await a.client.call('chat.selectVersion', { id, messageId: firstReply });

    const file = await a.client.call('chat.export', { id, format: 'json' });
    const exp = JSON.parse(file.text) as ConversationTreeExport;
    expect(exp).toMatchObject({ format: 'hubdesk.conversation', version: 2, leafId: firstReply });
    expect(exp.messages.filter((m) => m.role === 'user')).toHaveLength(3);
    expect(exp.messages.filter((m) => m.role === 'assistant')).toHaveLength(4);
    // "Export all" carries every version too.
    const all = JSON.parse((await a.client.call('chat.exportAll', {})).text) as ConversationArchive;
    expect(all.conversations).toEqual([exp]);
    const md = await a.client.call('chat.export', { id, format: 'markdown' });
    expect(md.text).toMatch(
      /- Versions: the ones shown; 5 other messages \(earlier versions\) only in the JSON export/,
    );

    // Into another app: the same ids, the same view, and every version opens the same.
    const b = await start();
    const [restored] = (await b.client.call('chat.importFile', { text: file.text })).conversations;
    expect(restored.id).toBe(id);
    expect(await b.client.call('chat.get', { id })).toMatchObject({
      messages: shown.messages,
      versions: shown.versions,
    });
    // Into the app it came from, as a copy: fresh ids, the same tree.
    const [copy] = (await a.client.call('chat.importFile', { text: file.text, asCopy: true })).conversations;
    expect(copy.id).not.toBe(id);
    const copyExp = JSON.parse((await a.client.call('chat.export', { id: copy.id, format: 'json' })).text);
    const copyIds = new Map(exp.messages.map((m, i) => [(copyExp as ConversationTreeExport).messages[i].id, m.id]));
    expect(copyIds.size).toBe(7);
    for (const m of exp.messages) expect(copyIds.has(m.id)).toBe(false);
    for (const [i, m] of exp.messages.entries()) {
      const original = await a.client.call('chat.selectVersion', { id, messageId: m.id });
      const there = await b.client.call('chat.selectVersion', { id, messageId: m.id });
      expect(there.messages, `version ${i}`).toEqual(original.messages);
      expect(there.versions).toEqual(original.versions);
      const mine = await a.client.call('chat.selectVersion', {
        id: copy.id,
        messageId: (copyExp as ConversationTreeExport).messages[i].id,
      });
      expect(renamed(mine, (x) => copyIds.get(x) ?? x)).toEqual(renamed(original, (x) => x));
    }

    // A second import of the same file is recognised and asked about; the copy is only made when asked for.
    const again = await b.client.call('chat.importFile', { text: file.text }).catch((e: unknown) => e);
    expect(again).toMatchObject({
      code: 'conflict',
      message: 'This conversation is already imported as “What is GGUF?”.',
      details: { duplicates: [{ id, title: 'What is GGUF?' }] },
    });
    expect((await b.client.call('chat.list', {})).conversations).toHaveLength(1);
    // The first version's file (the path shown) still imports.
    const old = syntheticExport(3, 'Old file');
    const [fromOld] = (await b.client.call('chat.importFile', { text: JSON.stringify(old) })).conversations;
    expect((await b.client.call('chat.get', { id: fromOld.id })).messages).toEqual(old.messages);
  });

  it('"Export all" of four ~9 M-character conversations (36 M characters) imports back', async () => {
    const a = await start();
    // Text that escapes in JSON and spans several bytes in UTF-8, with surrogate pairs a part may cut in two.
    const body = `Grüße "quoted" \\ 🙂 ${'a'.repeat(1000)}\n`.repeat(9_000);
    for (const k of [1, 2, 3, 4]) {
      const exp = syntheticExport(1, `Long ${k}`);
      exp.meta.id = `c_long${k}`;
      exp.messages = exp.messages.map((m, i) => ({ ...m, id: `m_long${k}x${i}`, content: `${k}${body}` }));
      a.services.chat.store.import(JSON.stringify(exp));
    }
    const file = await a.client.call('chat.exportAll', {});
    expect(file.text.length).toBeGreaterThan(36_000_000);
    expect(file.text.length).toBeGreaterThan(MAX_IMPORT_CHARS);
    expect((JSON.parse(file.text) as ConversationArchive).conversations).toHaveLength(4);

    const b = await start();
    // More than one request carries: the file goes in parts.
    await expect(b.client.call('chat.importFile', { text: file.text })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    const { conversations } = await importFileText(b.client, file.text);
    expect(conversations.map((c) => c.title).sort()).toEqual(['Long 1', 'Long 2', 'Long 3', 'Long 4']);
    for (const c of conversations) {
      const [k] = c.title.slice(-1);
      const { messages } = await b.client.call('chat.get', { id: c.id });
      expect(messages.map((m) => m.content === `${k}${body}`)).toEqual([true]);
    }
  }, 60_000);
});
