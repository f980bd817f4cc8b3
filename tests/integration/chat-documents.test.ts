import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { ReplyContext } from '@shared/contract/documents';
import { AppError } from '@shared/errors';
import { ChatService } from '../../electron/main/services/chat/service';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import type { RetrievalPort, RetrievedContext } from '../../electron/main/services/documents/ports';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';
import { Engines } from '../../electron/main/services/engines/registry';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

type Query = Parameters<RetrievalPort['retrieve']>[0];

/** A stand-in for DocumentsService's retrieval: answers what the test sets, and records what it was asked. */
class StandInRetrieval implements RetrievalPort {
  asked: Query[] = [];
  /** Whether the conversation has anything attached (the real service looks in the index). */
  attached = true;
  has() {
    return this.attached;
  }
  answer: (q: Query, signal?: AbortSignal) => Promise<RetrievedContext | undefined> = async () => undefined;
  retrieve(q: Query, signal?: AbortSignal) {
    this.asked.push(q);
    return this.answer(q, signal);
  }
}

const SYSTEM_TEXT =
  'Answer from these passages and cite them as [n].\n\n[1] manual.pdf, p. 3\nThe relief valve opens at 42 bar.';
const CONTEXT: ReplyContext = {
  mode: 'retrieved',
  citations: [
    { n: 1, chunk: 7, document: 'd_abc', name: 'manual.pdf', page: 3, excerpt: 'The relief valve opens at 42 bar.' },
  ],
  text: SYSTEM_TEXT,
};

/** The real ChatService and Ollama service against the Ollama fixture, with retrieval through the port. */
describe('replies with documents (Ollama fixture, retrieval port)', () => {
  let ollama: OllamaFixture;
  let dir: ReturnType<typeof tempDir>;
  let retrieval: StandInRetrieval;
  let store: ChatStore;
  let chat: ChatService;
  const log = createLogger();
  const file = () => join(dir.path, 'chats.sqlite');

  const open = () => {
    store = new ChatStore({ file: file() }, log);
    const service = new OllamaService({ host: () => ollama.url, keyedFetch: fetch, log, timeoutMs: 5_000 });
    const options = {
      ollama: service,
      log,
      router: () => ({ routerUrl: 'http://127.0.0.1:9', billTo: '' }),
      hfToken: () => undefined,
      routerFetch: fetch,
    };
    chat = new ChatService({
      store,
      ...options,
      engines: new Engines(options),
      ollamaApiKey: () => undefined,
      webFetch: fetch,
      mcp: () => Promise.reject(new Error('no MCP in this test')),
      retrieval,
    });
  };

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2'), fixtureModel('longctx')] });
    ollama.setShow('longctx', { parameters: { num_ctx: 16384 } });
  });
  afterAll(() => ollama?.stop());
  beforeEach(() => {
    dir = tempDir();
    retrieval = new StandInRetrieval();
    ollama.requests.length = 0;
    ollama.running = [];
    ollama.chunkIntervalMs = 1;
    ollama.chatScript = () => ({ content: tokens('It opens at 42 bar [1].') });
    open();
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  async function send(id: string, content: string, onEvent?: (e: ChatEvent) => void) {
    const events: ChatEvent[] = [];
    const ctx = {
      emit: (e: ChatEvent) => {
        events.push(e);
        onEvent?.(e);
      },
      signal: new AbortController().signal,
    };
    try {
      return { messages: (await chat.send({ id, content }, ctx)).messages, events, error: undefined };
    } catch (e) {
      return { messages: [] as ChatMessage[], events, error: e as AppError };
    }
  }
  const chatBodies = () =>
    ollama.requestsTo('/api/chat').map((r) => r.body as { messages: { role: string; content: string }[] });

  it('sends the passages in the one system message after the prompt, keeps the context on the reply, in exports and in the code', async () => {
    retrieval.answer = async () => ({ context: CONTEXT, system: SYSTEM_TEXT });
    const conv = chat.create({ model: 'llama3.2', system: 'You are terse.' });
    const { messages, events, error } = await send(conv.id, 'When does the relief valve open?');
    expect(error).toBeUndefined();
    // One system message (strict templates, Mistral's on vLLM, refuse a second): the prompt, then the passages.
    expect(chatBodies()[0].messages).toEqual([
      { role: 'system', content: `You are terse.\n\n${SYSTEM_TEXT}` },
      { role: 'user', content: 'When does the relief valve open?' },
    ]);
    // The question is the last user message; not loaded, Ollama's default context (4,096) bounds the budget.
    expect(retrieval.asked).toHaveLength(1);
    const q = retrieval.asked[0];
    expect(q).toMatchObject({ conversation: conv.id, bases: [], question: 'When does the relief valve open?' });
    expect(q.waitMs).toBe(15_000);
    expect(q.budgetTokens).toBeGreaterThan(2_700);
    expect(q.budgetTokens).toBeLessThan(4096 - 1024);
    const reply = messages.at(-1)!;
    expect(reply).toMatchObject({ role: 'assistant', status: 'complete', context: CONTEXT });
    expect(reply.notice).toBeUndefined();
    // The page has the citations while the reply streams, before its end.
    const streaming = events.find((e) => e.type === 'message' && e.message.status === 'streaming' && e.message.context);
    expect(streaming).toBeDefined();

    // Reopened from disk: the context is kept (the window and the export read it back).
    store.close();
    open();
    expect(chat.get(conv.id).messages.at(-1)!.context).toEqual(CONTEXT);
    const json = JSON.parse(chat.files.export(conv.id, 'json').text) as { messages: ChatMessage[] };
    expect(json.messages.at(-1)!.context).toEqual(CONTEXT);
    const md = chat.files.export(conv.id, 'markdown').text;
    expect(md).toContain('Sources:\n\n- [1] manual.pdf, p. 3 — The relief valve opens at 42 bar.');

    // "Open as code" sends what was sent: the context text in the system message, after the prompt.
    const { snippets } = await chat.code(conv.id);
    const curl = snippets.find((s) => s.client === 'curl')!;
    expect(curl.content).toContain('You are terse.');
    expect(curl.content).toContain('The relief valve opens at 42 bar.');
    expect(curl.content.indexOf('You are terse.')).toBeLessThan(curl.content.indexOf('Answer from these passages'));
    expect(curl.content.match(/"role": ?"system"/g)).toHaveLength(1);

    // The next answer asks again with the new question; the earlier context is not sent again.
    retrieval.answer = async () => undefined;
    await send(conv.id, 'Thanks. And the colour?');
    expect(retrieval.asked[1].question).toBe('Thanks. And the colour?');
    expect(chatBodies()[1].messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it("takes the budget from num_ctx, else the Modelfile's num_ctx, less the conversation and the answer's room", async () => {
    retrieval.answer = async () => ({ context: CONTEXT, system: SYSTEM_TEXT });
    const set = chat.create({ model: 'llama3.2', params: { num_ctx: 8192, max_tokens: 500 } });
    await send(set.id, 'When?');
    expect(retrieval.asked[0].budgetTokens).toBeGreaterThan(8192 - 500 - 500);
    expect(retrieval.asked[0].budgetTokens).toBeLessThan(8192 - 500);
    const modelfile = chat.create({ model: 'longctx' });
    await send(modelfile.id, 'x'.repeat(4000));
    // 16,384 less 1,024 for the answer, about 1,000 for the question, and a margin.
    expect(retrieval.asked[1].budgetTokens).toBeGreaterThan(16384 - 1024 - 1000 - 1000);
    expect(retrieval.asked[1].budgetTokens).toBeLessThan(16384 - 1024 - 1000);
    // Loaded now, /api/ps says the context it runs with (the fixture loads with 4,096): that one counts.
    await send(modelfile.id, 'And?');
    expect(retrieval.asked[2].budgetTokens).toBeLessThan(4096 - 1024 - 1000);
  });

  it('says which documents were not indexed yet, and answers with what is ready', async () => {
    retrieval.answer = async () => ({
      context: { ...CONTEXT, notIndexed: ['a.pdf', 'b.md'] },
      system: SYSTEM_TEXT,
    });
    const conv = chat.create({ model: 'llama3.2' });
    const { messages } = await send(conv.id, 'When does the relief valve open?');
    const reply = messages.at(-1)!;
    expect(reply.status).toBe('complete');
    expect(reply.notice).toBe('Not indexed yet: a.pdf, b.md — the answer did not see them.');
    expect(reply.context!.notIndexed).toEqual(['a.pdf', 'b.md']);
    expect(chatBodies()[0].messages[0]).toEqual({ role: 'system', content: SYSTEM_TEXT });
  });

  it('Stop while the documents are awaited ends the reply as stopped, and nothing is sent to the model', async () => {
    let waiting = false;
    retrieval.answer = (_q, signal) =>
      new Promise((_resolve, reject) => {
        waiting = true;
        signal!.addEventListener('abort', () => reject(new AppError('aborted', 'Stopped.')), { once: true });
      });
    const conv = chat.create({ model: 'llama3.2' });
    const done = send(conv.id, 'When?');
    await expect.poll(() => waiting).toBe(true);
    expect(chat.stop(conv.id)).toEqual({ stopped: true });
    const { error, events } = await done;
    expect(error).toMatchObject({ code: 'aborted' });
    const last = events.filter((e) => e.type === 'message').at(-1) as { message: ChatMessage };
    expect(last.message).toMatchObject({ role: 'assistant', status: 'stopped', content: '' });
    expect(chat.get(conv.id).messages.at(-1)!.status).toBe('stopped');
    expect(chatBodies()).toHaveLength(0);
  });

  it('without documents sends the conversation as it is; a retrieval failure is said and the chat answers', async () => {
    const conv = chat.create({ model: 'llama3.2', system: 'S' });
    // Nothing attached: retrieval is not asked at all (nor the model's context looked up for it).
    retrieval.attached = false;
    const none = await send(conv.id, 'Hi');
    expect(retrieval.asked).toHaveLength(0);
    expect(none.messages.at(-1)!.context).toBeUndefined();
    retrieval.attached = true;
    const plain = await send(conv.id, 'Hi again');
    expect(plain.messages.at(-1)!.context).toBeUndefined();
    expect(chatBodies()[1].messages.slice(0, 2)).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Hi' },
    ]);
    retrieval.answer = () =>
      Promise.reject(new AppError('not_found', 'The embedding model nomic-embed-text is not pulled: pull it first.'));
    const failed = await send(conv.id, 'Again');
    const reply = failed.messages.at(-1)!;
    expect(reply.status).toBe('complete');
    expect(reply.notice).toBe(
      'The documents were left out of this answer: The embedding model nomic-embed-text is not pulled: pull it first.',
    );
  });
});

/** A plant manual far larger than a 4,096-token context: 80 pumps, and the relief valve's one fact among them. */
function manual(): string {
  const filler = Array.from(
    { length: 80 },
    (_, i) =>
      `## Pump ${i}\n\nPump P-${i} runs at ${1000 + i * 10} rpm on line ${i % 7}. ` +
      `Its seals are changed every ${i + 2} weeks, and its filter is cleaned when the gauge reads ${i + 3} units. `.repeat(
        6,
      ),
  );
  filler.splice(41, 0, '## Relief valve\n\nThe relief valve opens at 42 bar and closes again at 38 bar.');
  return `# Plant manual\n\n${filler.join('\n\n')}\n`;
}

/** The app as it runs: the real DocumentsService (index in the chat database, the fixture's /api/embed) behind chat. */
describe('replies with documents (the real documents service, a folder far larger than the context)', () => {
  let ollama: OllamaFixture;
  let app: TestApp;
  let docs: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.addEmbeddingModel('nomic-embed-text');
    ollama.chatScript = () => ({ content: tokens('It opens at 42 bar [1].') });
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url }, documents: { startDelayMs: 60_000 } });
    docs = tempDir('hubdesk-chat-docs-');
    writeFileSync(join(docs.path, 'manual.md'), manual());
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
    docs?.remove();
  });

  it('sends the passage that holds the fact, not the whole file, and the reply cites it', async () => {
    const { client } = app;
    await client.call('docs.embedder.set', { backend: 'ollama', model: 'nomic-embed-text' });
    const conv = await client.call('chat.create', { model: 'llama3.2' });
    await client.call('docs.attachPath', { target: { conversation: conv.id }, path: docs.path });
    await expect
      .poll(
        async () =>
          (await client.call('docs.bases', { conversation: conv.id })).bases
            .flatMap((b) => b.documents)
            .map((d) => d.state),
        { timeout: 30_000 },
      )
      .toEqual(['ready']);
    const question = 'At what pressure does the relief valve open?';
    const result = await client.stream('chat.send', { id: conv.id, content: question }, () => {}).result;
    const body = ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { role: string; content: string }[] };
    const [sys, user] = body.messages;
    expect(user).toEqual({ role: 'user', content: question });
    expect(sys.role).toBe('system');
    expect(sys.content).toContain('The relief valve opens at 42 bar');
    // Far less than the file: passages within the model's 4,096-token context.
    expect(sys.content.length).toBeLessThan(4096 * 4);
    expect(sys.content).not.toContain('Pump P-79 runs');
    const reply = result.messages.at(-1)!;
    expect(reply.context?.mode).toBe('retrieved');
    expect(reply.context!.text).toBe(sys.content);
    expect(reply.context!.citations.some((c) => c.name === 'manual.md' && c.excerpt.includes('42 bar'))).toBe(true);
    const md = (await client.call('chat.export', { id: conv.id, format: 'markdown' })).text;
    // The best passage first: the fact's own section, under its headings.
    expect(md).toMatch(/\n- \[1\] manual\.md, § Plant manual › Relief valve — .*The relief valve opens at 42 bar/);
    // Only passages above the relevance floor are sent and cited: the fact's, not a dozen pumps behind it.
    expect(reply.context!.citations.length).toBeLessThanOrEqual(3);
  });

  it('a question the documents know nothing of is sent no passage and cites none', async () => {
    const { client } = app;
    const conv = await client.call('chat.create', { model: 'llama3.2' });
    await client.call('docs.attachPath', { target: { conversation: conv.id }, path: docs.path });
    await expect
      .poll(
        async () =>
          (await client.call('docs.bases', { conversation: conv.id })).bases.flatMap((b) => b.documents)[0]?.state,
        { timeout: 30_000 },
      )
      .toBe('ready');
    const result = await client.stream('chat.send', { id: conv.id, content: 'FAIL500 please' }, () => {}).result;
    const reply = result.messages.at(-1)!;
    expect(reply.context?.mode).toBe('retrieved');
    expect(reply.context!.citations).toEqual([]);
    const body = ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(body.messages[0].content).toBe("The user's documents gave no passage for this question.");
  });
});

/** No embedding model anywhere: the document's passages are stored, its vectors never come. */
describe('replies with documents whose vectors are not ready (the real documents service, no embedding model)', () => {
  let ollama: OllamaFixture;
  let app: TestApp;
  let docs: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    ollama.chatScript = () => ({ content: tokens('It opens at 42 bar [1].') });
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url }, documents: { startDelayMs: 60_000 } });
    docs = tempDir('hubdesk-chat-docs-words-');
    writeFileSync(join(docs.path, 'manual.md'), manual());
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
    docs?.remove();
  });

  it('says the passages were found by words alone, never that the answer did not see the document', async () => {
    const { client } = app;
    const conv = await client.call('chat.create', { model: 'llama3.2' });
    await client.call('docs.attachPath', { target: { conversation: conv.id }, path: join(docs.path, 'manual.md') });
    // Read and chunked, then stopped: no embedding model to make its vectors.
    await expect
      .poll(async () => (await client.call('docs.bases', { conversation: conv.id })).bases[0]?.error?.message, {
        timeout: 30_000,
      })
      .toBeDefined();
    const result = await client.stream(
      'chat.send',
      { id: conv.id, content: 'At what pressure does the relief valve open?' },
      () => {},
    ).result;
    const reply = result.messages.at(-1)!;
    expect(reply.status).toBe('complete');
    expect(reply.context?.mode).toBe('retrieved');
    expect(reply.context!.wordsOnly).toEqual(['manual.md']);
    expect(reply.context!.notIndexed).toBeUndefined();
    expect(reply.notice ?? '').not.toContain('did not see');
    // The words found the fact's passage, and it was sent.
    expect(reply.context!.citations[0]?.excerpt).toContain('42 bar');
    const body = ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(body.messages[0].content).toContain('The relief valve opens at 42 bar');
  });
});
