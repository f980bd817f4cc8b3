import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppError } from '@shared/errors';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startOllamaWebFixture, type OllamaWebFixture } from '../fixtures/ollama-web';
import { startTestApp, type TestApp } from '../helpers/app';
import { webToolsAllowed } from '../helpers/tools';

type Sent = { role: string; content: string; tool_calls?: unknown[]; tool_name?: string }[];

describe('versions and the turns a model receives (Ollama fixture, real layers)', () => {
  let ollama: OllamaFixture;
  let web: OllamaWebFixture;
  let app: TestApp;
  let n = 0;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2'), fixtureModel('qwen3:8b')] });
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools'] });
    web = await startOllamaWebFixture();
    app = await startTestApp({
      env: { OLLAMA_HOST: ollama.url, OLLAMA_API_KEY: web.key },
      chat: { webBase: web.url, maxToolRounds: 2 },
    });
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
    await web?.stop();
  });
  beforeEach(() => {
    ollama.requests.length = 0;
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = (req) => ({ content: tokens(`Answer ${++n} to ${req.messages!.at(-1)!.content}`) });
  });

  async function run(name: 'chat.send' | 'chat.regenerate', input: Record<string, unknown>) {
    const events: ChatEvent[] = [];
    const h = app.client.stream(name, input as never, (evs) => events.push(...evs));
    try {
      return { result: await h.result, events, error: undefined as AppError | undefined };
    } catch (e) {
      return { result: undefined, events, error: e as AppError };
    }
  }
  const send = (id: string, content: string) => run('chat.send', { id, content });
  const view = (id: string) => app.client.call('chat.get', { id });
  const lastSent = () => (ollama.requestsTo('/api/chat').at(-1)!.body as { messages: Sent }).messages;

  it('regenerate keeps the earlier reply as a version; the conversation continues from the chosen one', async () => {
    const { id } = await app.client.call('chat.create', { model: 'llama3.2' });
    await send(id, 'hello');
    const first = (await view(id)).messages[1];
    await run('chat.regenerate', { id });
    let v = await view(id);
    const second = v.messages[1];
    expect(second.id).not.toBe(first.id);
    expect(v.versions[second.id]).toEqual([first.id, second.id]);
    // Choose the first answer again (‹ 1/2 ›) and go on: the model receives that one as context.
    v = await app.client.call('chat.selectVersion', { id, messageId: first.id });
    expect(v.messages.map((m) => m.id)).toEqual([v.messages[0].id, first.id]);
    await send(id, 'and then?');
    expect(lastSent().map((m) => m.content)).toEqual(['hello', first.content, 'and then?']);
    // Both versions are still there after a restart of the conversation view.
    v = await view(id);
    expect(v.versions[first.id]).toEqual([first.id, second.id]);
    expect(v.messages).toHaveLength(4);
  });

  it('edit and regenerate keeps the previous question and its answers as a version', async () => {
    const { id } = await app.client.call('chat.create', { model: 'llama3.2' });
    await send(id, 'first');
    await send(id, 'second');
    const before = (await view(id)).messages;
    const { result } = await run('chat.regenerate', {
      id,
      edit: { messageId: before[0].id, content: 'first, edited' },
    });
    expect(result!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    let v = await view(id);
    expect(v.messages.map((m) => m.content)).toEqual(['first, edited', expect.stringMatching(/to first, edited$/)]);
    expect(v.versions[v.messages[0].id]).toEqual([before[0].id, v.messages[0].id]);
    // Back to the original question: its whole thread is there, untouched.
    v = await app.client.call('chat.selectVersion', { id, messageId: before[0].id });
    expect(v.messages.map((m) => m.id)).toEqual(before.map((m) => m.id));
    // "Save" (no regenerate) makes a version too, with no reply yet; the old text keeps its reply.
    const saved = await app.client.call('chat.edit', { id, messageId: before[2].id, content: 'second, saved' });
    v = await view(id);
    expect(v.messages.map((m) => m.content)).toEqual([before[0].content, before[1].content, 'second, saved']);
    expect(v.versions[saved.id]).toEqual([before[2].id, saved.id]);
  });

  it('after a failed reply with no text, the next request still alternates (the two questions merged)', async () => {
    const { id } = await app.client.call('chat.create', { model: 'llama3.2', system: 'Be brief.' });
    ollama.failWith('/api/chat', 500, { times: 1 });
    const failed = await send(id, 'first try');
    expect(failed.error).toBeDefined();
    expect((await view(id)).messages[1]).toMatchObject({ status: 'error', content: '' });
    await send(id, 'second try');
    expect(lastSent()).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first try\n\nsecond try' },
    ]);
    // "Open as code" sends exactly the same turns.
    const { snippets } = await app.client.call('chat.code', { id });
    const curl = snippets.find((s) => s.language === 'sh')!.content;
    const body = JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]) as { messages: Sent };
    expect(body.messages).toEqual(lastSent());
  });

  it('"Open as code" carries the tool calls and tool results the app really sent', async () => {
    const { id } = await app.client.call('chat.create', { model: 'qwen3:8b', ...webToolsAllowed });
    ollama.chatScript = (req) =>
      (req.messages ?? []).some((m) => m.role === 'tool')
        ? { content: tokens('It is sunny.') }
        : { content: [], tool_calls: [{ name: 'web_search', arguments: { query: 'tokyo weather' } }] };
    await send(id, 'Weather in Tokyo?');
    const sent = lastSent();
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    ollama.chatScript = () => ({ content: tokens('Thanks!') });
    await send(id, 'thanks');
    const { snippets } = await app.client.call('chat.code', { id });
    const curl = snippets.find((s) => s.language === 'sh')!.content;
    const body = JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]) as { messages: Sent };
    // Same turns as the app's last request (which also answered "thanks").
    expect(body.messages).toEqual(lastSent());
    expect(body.messages[1].tool_calls).toEqual([
      { function: { name: 'web_search', arguments: { query: 'tokyo weather' } } },
    ]);
    expect(body.messages[2]).toMatchObject({ role: 'tool', tool_name: 'web_search' });
    // The OpenAI clients (→ Ollama /v1) get OpenAI's shape: ids, JSON-string arguments, tool_call_id.
    const py = snippets.find((s) => s.language === 'python' && s.client === 'openai')!.content;
    const callId = /"tool_calls": \[\s*\{\s*"id": "([^"]+)"/.exec(py)![1];
    expect(py).toContain(`"tool_call_id": "${callId}"`);
    expect(py).toContain('"arguments": "{\\"query\\":\\"tokyo weather\\"}"');
  });
});
