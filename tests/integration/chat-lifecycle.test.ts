import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppError } from '@shared/errors';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, type TestApp } from '../helpers/app';

/** Edits, Stop and delete never move or lose text (issue #25: 7, 9, 13), through the real layers. */
describe('chat edits, Stop and delete (Ollama fixture, real layers)', () => {
  let ollama: OllamaFixture;
  let app: TestApp;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url } });
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
  });
  beforeEach(() => {
    ollama.requests.length = 0;
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = (req) => ({ content: tokens(`Answer to ${req.messages!.at(-1)!.content}`) });
  });

  const view = (id: string) => app.client.call('chat.get', { id });
  const texts = (ms: ChatMessage[]) => ms.map((m) => m.content);

  /** A reply streaming forever (until stopped): `seen` is the text its deltas carried so far. */
  function endless(id: string) {
    ollama.chunkIntervalMs = 2;
    ollama.chatScript = () => ({ content: Array.from({ length: 20_000 }, (_, i) => `w${i} `) });
    const seen = { text: '', replyId: '' };
    const events: ChatEvent[] = [];
    const h = app.client.stream('chat.send', { id, content: 'go on' }, (evs) => {
      events.push(...evs);
      for (const e of evs) {
        if (e.type === 'message' && e.message.role === 'assistant') seen.replyId = e.message.id;
        if (e.type === 'delta') seen.text += e.content ?? '';
      }
    });
    // How the stream ended, caught at once (it ends before the test awaits it).
    const ended = h.result.then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    return { seen, events, ended };
  }

  it('"Save" on an answered question makes a new version with no reply; the old one keeps its reply', async () => {
    const { id } = await app.client.call('chat.create', { model: 'llama3.2' });
    await app.client.stream('chat.send', { id, content: 'Original question' }, () => {}).result;
    const [q1, r1] = (await view(id)).messages;
    expect(r1.content).toBe('Answer to Original question');

    const saved = await app.client.call('chat.edit', { id, messageId: q1.id, content: 'Fixed typo question' });
    expect(saved.id).not.toBe(q1.id);
    expect(saved.content).toBe('Fixed typo question');
    // The path ends at the saved question: no reply is shown under text it did not answer.
    let v = await view(id);
    expect(texts(v.messages)).toEqual(['Fixed typo question']);
    expect(v.versions[saved.id]).toEqual([q1.id, saved.id]);
    expect(v.meta.messageCount).toBe(1);
    // Version 1/2: the original question with its reply, untouched.
    v = await app.client.call('chat.selectVersion', { id, messageId: q1.id });
    expect(v.messages.map((m) => m.id)).toEqual([q1.id, r1.id]);
    expect(texts(v.messages)).toEqual(['Original question', 'Answer to Original question']);
    // And so after main reopens the database.
    app.services.chat.store.close();
    v = await app.client.call('chat.selectVersion', { id, messageId: saved.id });
    expect(texts(v.messages)).toEqual(['Fixed typo question']);
    v = await app.client.call('chat.selectVersion', { id, messageId: q1.id });
    expect(texts(v.messages)).toEqual(['Original question', 'Answer to Original question']);
    // Regenerate on the saved version answers it, and the original keeps its own reply.
    await app.client.call('chat.selectVersion', { id, messageId: saved.id });
    await app.client.stream('chat.regenerate', { id }, () => {}).result;
    expect(texts((await view(id)).messages)).toEqual(['Fixed typo question', 'Answer to Fixed typo question']);
    v = await app.client.call('chat.selectVersion', { id, messageId: q1.id });
    expect(texts(v.messages)).toEqual(['Original question', 'Answer to Original question']);
  });

  it('Stop keeps exactly what the page showed, though main had received more', async () => {
    const { id } = await app.client.call('chat.create', { model: 'llama3.2' });
    const { seen, ended, events } = endless(id);
    await expect.poll(() => seen.text.length, { timeout: 10_000 }).toBeGreaterThan(40);
    // The page painted a little less than it received (deltas after the last frame), and main is further on still.
    const shown = seen.text.slice(0, seen.text.length - 3);
    const r = await app.client.call('chat.stop', {
      id,
      shown: { messageId: seen.replyId, content: shown.length, thinking: 0 },
    });
    expect(r).toEqual({ stopped: true });
    expect(await ended).toMatchObject({ code: 'aborted' });
    const reply = (await view(id)).messages[1];
    expect(reply).toMatchObject({ id: seen.replyId, status: 'stopped', content: shown });
    // The stream's last word on it says the same, so the page ends on the text it showed.
    const last = events.findLast((e) => e.type === 'message' && e.message.id === seen.replyId);
    expect(last).toMatchObject({ message: { status: 'stopped', content: shown } });
    await expect.poll(() => ollama.requestsTo('/api/chat').at(-1)!.closedEarly).toBe(true);
    // Nothing is running any more: a second Stop has nothing to stop.
    expect(await app.client.call('chat.stop', { id })).toEqual({ stopped: false });
  });

  it('deleting a conversation whose reply streams stops the reply quietly, then deletes', async () => {
    const { id } = await app.client.call('chat.create', { model: 'llama3.2' });
    const { seen, ended } = endless(id);
    await expect.poll(() => seen.text.length, { timeout: 10_000 }).toBeGreaterThan(20);
    await app.client.call('chat.delete', { id });
    const err = await ended;
    expect(err).toMatchObject({ code: 'aborted' });
    expect(err!.message).not.toMatch(/could not be saved|AppError/);
    expect((await app.client.call('chat.list', {})).conversations.map((m) => m.id)).not.toContain(id);
    await expect.poll(() => ollama.requestsTo('/api/chat').at(-1)!.closedEarly).toBe(true);
    // Undo brings it back with the reply ended, not left streaming.
    await app.client.call('chat.restore', { id });
    const [question, reply] = (await view(id)).messages;
    expect(question.content).toBe('go on');
    expect(reply.status).toBe('stopped');
    expect(reply.content).toMatch(/^w0 w1 w2 /);
  });
});
