import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppError } from '@shared/errors';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import { functionCallGguf, thinkingGguf } from '../fixtures/scripted-gguf';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/**
 * Chat with the built-in engine through the real layers (the typed client over HTTP, the router, the chat service,
 * the local engine, node-llama-cpp on the CPU), with GGUFs from a folder the user added; no Ollama anywhere.
 */
describe('chat with the built-in llama.cpp engine', () => {
  const models = tempDir('hubdesk-local-models-');
  let app: TestApp;
  const ids: Record<'tiny' | 'call' | 'think' | 'odd', string> = { tiny: '', call: '', think: '', odd: '' };

  beforeAll(async () => {
    writeFileSync(join(models.path, 'tiny.gguf'), tinyGguf());
    writeFileSync(
      join(models.path, 'call.gguf'),
      functionCallGguf({ name: 'add', params: { a: 2, b: 40 }, answer: ['▁Sunny', '▁in', '▁Paris', '.'] }),
    );
    writeFileSync(join(models.path, 'think.gguf'), thinkingGguf());
    writeFileSync(join(models.path, 'odd.gguf'), tinyGguf({ architecture: 'nosucharch', seed: 3 }));
    app = await startTestApp({
      local: { runtime: { gpu: false, threads: 1 } },
      chat: { maxToolRounds: 3, toolTimeoutMs: 5_000 },
      mcp: { connectTimeoutMs: 5_000 },
    });
    const list = await app.client.call('local.folders.add', { path: models.path });
    for (const k of Object.keys(ids) as (keyof typeof ids)[])
      ids[k] = list.models.find((m) => m.path.endsWith(`${k}.gguf`))!.id;
    const view = await app.client.call('mcp.config.save', { text: mcpConfigText({ fixture: stdioEntry() }) });
    expect(view.errors).toEqual([]);
  });
  afterAll(async () => {
    await app?.close();
    models.remove();
  });

  const create = (model: string, extra: Record<string, unknown> = {}) =>
    app.client.call('chat.create', { backend: 'local', model, ...extra });

  async function send(id: string, content: string, onEvents?: (evs: ChatEvent[]) => void) {
    const events: ChatEvent[] = [];
    const h = app.client.stream('chat.send', { id, content }, (evs) => {
      events.push(...evs);
      onEvents?.(evs);
    });
    try {
      return { result: await h.result, events, error: undefined as AppError | undefined };
    } catch (e) {
      return { result: undefined, events, error: e as AppError };
    }
  }
  const reply = (messages: ChatMessage[]) => messages.filter((m) => m.role === 'assistant').at(-1)!;

  it('loads on first use, streams a reply with its figures, and shows the model loaded with its memory', async () => {
    expect((await app.client.call('local.status', {})).loaded).toEqual([]);
    const conv = await create(ids.tiny, { params: { max_tokens: 24, temperature: 0 } });
    const { result, events, error } = await send(conv.id, 'hello');
    expect(error).toBeUndefined();
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas.length).toBeGreaterThan(0);
    const msg = reply(result!.messages);
    expect(msg.status).toBe('complete');
    expect(msg.content.length).toBeGreaterThan(0);
    expect(msg.content).toBe(deltas.map((d) => (d.type === 'delta' ? (d.content ?? '') : '')).join(''));
    expect(msg.figures).toMatchObject({ source: 'measured', evalTokens: 24, doneReason: 'length' });
    expect(msg.figures!.promptTokens).toBeGreaterThan(0);
    expect(msg.figures!.ttftMs).toBeGreaterThan(0);
    expect(msg.figures!.tokensPerSecond).toBeGreaterThan(0);
    expect(msg.figures!.loadMs).toBeGreaterThan(0);
    const status = await app.client.call('local.status', {});
    expect(status).toMatchObject({ started: true, gpu: 'cpu' });
    expect(status.loaded).toMatchObject([{ id: ids.tiny, embedding: false }]);
    expect(status.loaded[0].memoryBytes).toBeGreaterThan(400_000);

    // The second turn reuses the loaded model (no load time) and the same greedy settings give the same text.
    const again = await send(conv.id, 'hello');
    const second = reply(again.result!.messages);
    expect(second.figures!.loadMs).toBeUndefined();
    expect(second.status).toBe('complete');
  });

  it('stops mid-reply and keeps the text so far; then unloads, leaving nothing loaded', async () => {
    await app.client.call('local.load', { id: ids.tiny, contextSize: 2048 });
    const conv = await create(ids.tiny, { params: { max_tokens: 2000, temperature: 0 } });
    let seen = '';
    const h = app.client.stream('chat.send', { id: conv.id, content: 'tell me a long story' }, (evs) => {
      for (const e of evs) if (e.type === 'delta') seen += e.content ?? '';
    });
    // Stop ends the stream at once: it may end before chat.stop's own answer arrives.
    const ended = h.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    await expect.poll(() => seen.length, { timeout: 30_000 }).toBeGreaterThan(10);
    expect(await app.client.call('chat.stop', { id: conv.id })).toEqual({ stopped: true });
    expect(await ended).toMatchObject({ code: 'aborted' });
    const msg = reply((await app.client.call('chat.get', { id: conv.id })).messages);
    expect(msg.status).toBe('stopped');
    expect(msg.content.length).toBeGreaterThanOrEqual(10);
    expect(msg.content.startsWith(seen.slice(0, 10))).toBe(true);
    expect(msg.figures!.evalTokens).toBeLessThan(2000);
    // The model is free again once stopped: unloading it leaves nothing.
    expect((await app.client.call('local.unload', {})).loaded).toEqual([]);
  });

  it('streams thoughts apart from the text, and hides them when thinking is off', async () => {
    const conv = await create(ids.think, { params: { temperature: 0 } });
    const { result, error } = await send(conv.id, 'Say hello');
    expect(error).toBeUndefined();
    const msg = reply(result!.messages);
    expect(msg.thinking).toBe('Let me think');
    expect(msg.content.trim()).toBe('Hello.');
    await app.client.call('chat.update', { id: conv.id, patch: { params: { temperature: 0, think: false } } });
    const quiet = reply((await send(conv.id, 'Say hello')).result!.messages);
    expect(quiet.thinking).toBeUndefined();
  });

  it('calls a tool through node-llama-cpp function calling, after approval, and answers with its result', async () => {
    const conv = await create(ids.call, { params: { temperature: 0 }, toolSources: ['fixture'] });
    // node-llama-cpp documents every offered tool in the prompt: a context that holds them.
    await app.client.call('local.load', { id: ids.call, contextSize: 8192 });
    const asked: string[] = [];
    const answers: Promise<unknown>[] = [];
    const { result, error } = await send(conv.id, 'What is 2 + 40?', (evs) => {
      for (const e of evs)
        if (e.type === 'message' && e.message.role === 'tool' && e.message.toolState === 'approval') {
          asked.push(e.message.toolName!);
          answers.push(
            app.client.call('chat.toolDecision', { id: conv.id, messageId: e.message.id, decision: 'once' }),
          );
        }
    });
    await Promise.all(answers);
    expect(error).toBeUndefined();
    expect(asked).toEqual(['add']);
    const [caller, tool, answer] = result!.messages.filter((m) => m.role !== 'user');
    expect(caller.toolCalls).toMatchObject([{ name: 'add', arguments: { a: 2, b: 40 } }]);
    expect(caller.toolCalls![0].id).toMatch(/^call_/);
    expect(caller.figures?.doneReason).toBe('tool_calls');
    expect(tool).toMatchObject({ role: 'tool', toolSource: 'fixture', content: '42', status: 'complete' });
    expect(answer.content.trim()).toBe('Sunny in Paris.');
    await app.client.call('local.unload', { id: ids.call });
  });

  it('refuses a model llama.cpp cannot run, in the reply, saying why', async () => {
    const conv = await create(ids.odd);
    const { error, result } = await send(conv.id, 'hello');
    expect(result).toBeUndefined();
    expect(error?.message).toContain("llama.cpp does not know the architecture 'nosucharch'");
    const msg = reply((await app.client.call('chat.get', { id: conv.id })).messages);
    expect(msg.status).toBe('error');
    expect((await app.client.call('local.status', {})).loaded.map((l) => l.id)).not.toContain(ids.odd);
  });

  it('answers a conversation longer than the loaded context (node-llama-cpp shortens the history)', async () => {
    await app.client.call('local.load', { id: ids.tiny, contextSize: 128 });
    const conv = await create(ids.tiny, { params: { max_tokens: 8, temperature: 0 } });
    const { error, result } = await send(conv.id, 'hello world '.repeat(200));
    expect(error).toBeUndefined();
    expect(reply(result!.messages)).toMatchObject({ status: 'complete', figures: { evalTokens: 8 } });
    await app.client.call('local.unload', {});
  });

  it('embeds texts with local.embed', async () => {
    const { embeddings } = await app.client.call('local.embed', { id: ids.tiny, input: ['hello', 'world'] });
    expect(embeddings.map((v) => v.length)).toEqual([64, 64]);
    await app.client.call('local.unload', {});
  });
});
