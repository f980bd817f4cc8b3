import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { syntheticExport } from '../fixtures/conversation';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';

/** A long conversation opens with its last messages only; the rest comes on demand (real layers over HTTP). */
describe('opening a 10,000-message conversation (windowed, Ollama fixture)', () => {
  let ollama: OllamaFixture;
  let app: TestApp;
  let id: string;
  const N = 10_000;
  const all = syntheticExport(N, 'Ten thousand').messages;
  const ids = (ms: ChatMessage[]) => ms.map((m) => m.id);

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = () => ({ content: tokens('A short answer.') });
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url } });
    ({ id } = await app.client.call('chat.import', { text: JSON.stringify(syntheticExport(N, 'Ten thousand')) }));
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
  });

  it('chat.get sends only the last 100 messages and says older ones exist; the count is of the whole path', async () => {
    const v = await app.client.call('chat.get', { id });
    expect(v.messages).toHaveLength(100);
    expect(ids(v.messages)).toEqual(ids(all.slice(-100)));
    expect(v.messages).toEqual(all.slice(-100));
    expect(v.hasOlder).toBe(true);
    expect(v.meta.messageCount).toBe(N);
  });

  it('chat.older pages back, 100 at a time, to the first message, in order and without gaps', async () => {
    let v: { messages: ChatMessage[]; hasOlder: boolean } = await app.client.call('chat.get', { id });
    let shown = v.messages;
    let pages = 0;
    while (v.hasOlder) {
      v = await app.client.call('chat.older', { id, before: shown[0].id });
      expect(v.messages.length).toBeGreaterThan(0);
      shown = [...v.messages, ...shown];
      pages++;
    }
    expect(pages).toBe(N / 100 - 1);
    expect(ids(shown)).toEqual(ids(all));
    // The first message has nothing before it; an unknown message is refused with what to do.
    expect(await app.client.call('chat.older', { id, before: all[0].id })).toEqual({
      messages: [],
      versions: {},
      hasOlder: false,
      hasNewer: false,
    });
    await expect(app.client.call('chat.older', { id, before: 'm_nosuchmessage' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/reopen the conversation/),
    });
    const page = await app.client.call('chat.older', { id, before: all[500].id, limit: 7 });
    expect(ids(page.messages)).toEqual(ids(all.slice(493, 500)));
  });

  it('chat.get {around} (a search hit far back) sends 100 messages centred on it; chat.newer pages on to the end', async () => {
    const hit = all[5000];
    const v = await app.client.call('chat.get', { id, around: hit.id });
    expect(ids(v.messages)).toEqual(ids(all.slice(4951, 5051)));
    expect(v.messages[49].id).toBe(hit.id);
    expect([v.hasOlder, v.hasNewer]).toEqual([true, true]);
    let shown = v.messages;
    let page: { messages: ChatMessage[]; hasNewer: boolean } = v;
    while (page.hasNewer) {
      page = await app.client.call('chat.newer', { id, after: shown.at(-1)!.id });
      shown = [...shown, ...page.messages];
    }
    expect(ids(shown)).toEqual(ids(all.slice(4951)));
    expect(await app.client.call('chat.newer', { id, after: all.at(-1)!.id })).toMatchObject({ messages: [] });
    // A hit within the last 100 opens the usual window (the end); one not on the path, too.
    const near = await app.client.call('chat.get', { id, around: all[N - 30].id });
    expect(ids(near.messages)).toEqual(ids(all.slice(-100)));
    expect(near.hasNewer).toBe(false);
    const gone = await app.client.call('chat.get', { id, around: 'm_notonthepath' });
    expect(ids(gone.messages)).toEqual(ids(all.slice(-100)));
  });

  it('versions of a message outside the window: listed when its page is loaded, and selectable', async () => {
    const q = all[10];
    const edited = await app.client.call('chat.edit', { id, messageId: q.id, content: 'Question 10, edited' });
    expect(edited.id).not.toBe(q.id);
    // "Save" made a new version, not answered yet: the conversation ends there for now.
    let s = await app.client.call('chat.get', { id });
    expect(ids(s.messages)).toEqual([...ids(all.slice(0, 10)), edited.id]);
    expect(s.meta.messageCount).toBe(11);
    // Back to the original question: the path runs on to the last message, which the window shows.
    await app.client.call('chat.selectVersion', { id, messageId: q.id });
    // The window does not reach it: no versions to send for it.
    const v = await app.client.call('chat.get', { id });
    expect(v.versions).toEqual({});
    expect(v.messages).toHaveLength(100);
    const page = await app.client.call('chat.older', { id, before: all[50].id });
    const versions = page.versions[q.id];
    expect(versions).toEqual([q.id, edited.id]);
    // Showing the edited text (a version without replies): the path ends there.
    s = await app.client.call('chat.selectVersion', { id, messageId: edited.id });
    expect(ids(s.messages)).toEqual([...ids(all.slice(0, 10)), edited.id]);
    expect(s.messages.at(-1)!.content).toBe('Question 10, edited');
    expect(s.versions[edited.id]).toEqual(versions);
    expect(s.meta.messageCount).toBe(11);
    // Back to the original: the path runs on to the last message.
    s = await app.client.call('chat.selectVersion', { id, messageId: q.id });
    expect(s.meta.messageCount).toBe(N);
    expect(s.messages.find((m) => m.id === q.id)?.content).toBe('Question 10');
    expect(s.versions[q.id]).toEqual(versions);
    // A window around it (the path runs on for 9,989 messages; they are not sent).
    expect(s.messages).toHaveLength(61);
    expect(ids(s.messages)).toEqual(ids(all.slice(0, 61)));
    expect([s.hasOlder, s.hasNewer]).toEqual([false, true]);
  });

  it('a reply in the long conversation sends the whole history, not the window', async () => {
    ollama.requests.length = 0;
    const h = app.client.stream('chat.send', { id, content: 'And now?' }, () => {});
    const { messages } = await h.result;
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'A short answer.', status: 'complete' });
    const sent = (ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { content: string }[] }).messages;
    expect(sent).toHaveLength(N + 1);
    expect(sent[0].content).toBe('Question 0');
    expect(sent[10].content).toBe('Question 10');
    expect(sent.at(-1)!.content).toBe('And now?');
    // The window follows: the new messages end it, the count is of the whole path.
    const v = await app.client.call('chat.get', { id });
    expect(v.messages).toHaveLength(100);
    expect(v.messages.slice(-2).map((m) => m.content)).toEqual(['And now?', 'A short answer.']);
    expect(v.meta.messageCount).toBe(N + 2);
    // Export reads the whole tree from the database too: the path and the edited version of question 10.
    const exp = JSON.parse((await app.client.call('chat.export', { id, format: 'json' })).text);
    expect(exp.messages).toHaveLength(N + 3);
    expect(exp.leafId).toBe(messages.at(-1)!.id);
  });
});
