import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationArchive, ConversationExport } from '@shared/contract/chat-export';
import { syntheticExport } from '../fixtures/conversation';
import { startTestApp, type TestApp } from '../helpers/app';

/** A conversation with its own ids (syntheticExport's message ids are the same in every export). */
function conversation(n: number, title: string, extra: Partial<ConversationExport['meta']> = {}): ConversationExport {
  const exp = syntheticExport(n, title);
  const tag = title.toLowerCase().replace(/\W+/g, '');
  return {
    ...exp,
    meta: { ...exp.meta, id: `c_${tag}`, ...extra },
    messages: exp.messages.map((m, i) => ({ ...m, id: `m_${tag}${i}` })),
  };
}

describe('export all conversations to one file, import it back', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
  });
  const start = async () => {
    const app = await startTestApp();
    apps.push(app);
    return app;
  };
  const everything = async (app: TestApp) => {
    const { conversations } = await app.client.call('chat.list', {});
    return Promise.all(conversations.map((m) => app.client.call('chat.get', { id: m.id })));
  };

  it('an archive of every conversation restores them all, identical, into another data dir', async () => {
    const a = await start();
    const sources = [
      conversation(4, 'Quantization', { pinned: true }),
      conversation(7, 'Embeddings', { system: 'Be brief.', params: { temperature: 0.2 } }),
      conversation(1, 'Draft'),
    ];
    for (const s of sources) await a.client.call('chat.import', { text: JSON.stringify(s) });
    // A deleted conversation is not exported.
    const gone = await a.client.call('chat.create', { title: 'Gone' });
    await a.client.call('chat.delete', { id: gone.id });

    const file = await a.client.call('chat.exportAll', {});
    expect(file.mime).toBe('application/json');
    expect(file.filename).toMatch(/^hubdesk-conversations-\d{4}-\d{2}-\d{2}\.json$/);
    const archive = JSON.parse(file.text) as ConversationArchive;
    expect(archive).toMatchObject({ format: 'hubdesk.conversations', version: 2 });
    expect(archive.conversations.map((c) => c.meta.title).sort()).toEqual(['Draft', 'Embeddings', 'Quantization']);

    const b = await start();
    const { conversations } = await b.client.call('chat.importFile', { text: file.text });
    expect(conversations.map((m) => m.id).sort()).toEqual(sources.map((s) => s.meta.id).sort());
    const before = await everything(a);
    const after = await everything(b);
    expect(after.map((v) => [v.meta, v.messages])).toEqual(before.map((v) => [v.meta, v.messages]));
    expect(after.find((v) => v.meta.title === 'Embeddings')?.messages).toEqual(sources[1].messages);

    // The same archive again (or into the app it came from) is recognised and writes nothing; asked for, it adds
    // copies with fresh ids, never overwrites.
    for (const app of [a, b]) {
      const refused = await app.client.call('chat.importFile', { text: file.text }).catch((e: unknown) => e);
      expect(refused).toMatchObject({
        code: 'conflict',
        message: expect.stringMatching(/^3 of these conversations are already here: “.*”, “.*”, “.*”\.$/),
        details: { duplicates: expect.arrayContaining([{ id: sources[0].meta.id, title: 'Quantization' }]) },
      });
      expect((await app.client.call('chat.list', {})).conversations).toHaveLength(3);
    }
    const again = await a.client.call('chat.importFile', { text: file.text, asCopy: true });
    expect(again.conversations).toHaveLength(3);
    for (const m of again.conversations) expect(sources.map((s) => s.meta.id)).not.toContain(m.id);
    expect((await a.client.call('chat.list', {})).conversations).toHaveLength(6);
    expect(await everything(b)).toEqual(after);
  });

  it('a foreign or damaged file is refused with the reason, and nothing changes', async () => {
    const app = await start();
    await app.client.call('chat.import', { text: JSON.stringify(conversation(2, 'Kept')) });
    const before = await everything(app);
    const good = conversation(3, 'Fine');
    const bad = conversation(3, 'Broken');
    const archive = (conversations: unknown[]) =>
      JSON.stringify({
        format: 'hubdesk.conversations',
        version: 1,
        exportedAt: '2026-01-01T00:00:00Z',
        conversations,
      });
    const refusals: [string, RegExp][] = [
      ['not json at all', /not JSON/],
      [JSON.stringify({ messages: [], title: 'ChatGPT export' }), /not a HubDesk conversation export/],
      [JSON.stringify([good]), /not a HubDesk conversation export/],
      // One damaged conversation in the middle: the ones before it are not written either.
      [
        archive([good, { ...bad, messages: [{ ...bad.messages[0], role: 'wizard' }] }, conversation(1, 'Last')]),
        /not a complete HubDesk conversations archive: .* at conversations\.1\.messages\.0\.role/,
      ],
      [archive([good, { ...bad, messages: [bad.messages[0], bad.messages[0]] }]), /repeats message id .*“Broken”/],
      [archive([]), /holds no conversations/],
      [JSON.stringify({ format: 'hubdesk.conversations', version: 3, conversations: [good] }), /archive/],
    ];
    for (const [text, message] of refusals) {
      const err = await app.client.call('chat.importFile', { text }).catch((e: unknown) => e);
      expect(err, text.slice(0, 60)).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(message) });
    }
    expect(await everything(app)).toEqual(before);
    // A single conversation's export still imports through the same call.
    const one = await app.client.call('chat.importFile', { text: JSON.stringify(good) });
    expect(one.conversations.map((m) => m.title)).toEqual(['Fine']);
  });
});
