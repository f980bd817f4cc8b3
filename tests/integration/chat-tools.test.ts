import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { WEB_TOOLS } from '@shared/contract/chat-conversation';
import type { ChatEvent } from '@shared/contract/chat-events';
import type { AppError } from '@shared/errors';
import { mcpConfigText, startMcpHttpFixture, stdioEntry, type McpHttpFixture } from '../fixtures/mcp-fixture';
import { defaultChatScript, fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { startRouterFixture, words, type RouterFixture } from '../fixtures/router';
import { startTestApp, type TestApp } from '../helpers/app';

type Answer = 'once' | 'always' | 'deny' | 'cancel';
const ROUTER_MODEL = 'meta-llama/Llama-3.1-8B-Instruct';

/**
 * Tools in chat, through the real layers: the typed client over HTTP, the router, the chat service, a real MCP
 * server (the SDK fixture) over stdio and over Streamable HTTP, and the Ollama and router fixtures emitting tool
 * calls as the real servers do.
 */
describe('tools in chat: MCP servers for Ollama and router conversations, with approval', () => {
  let ollama: OllamaFixture;
  let router: RouterFixture;
  let remote: McpHttpFixture;
  let app: TestApp;

  beforeAll(async () => {
    [ollama, router, remote] = await Promise.all([
      startOllamaFixture({ models: [fixtureModel('qwen3:8b', { family: 'qwen3' }), fixtureModel('llama3.2')] }),
      startRouterFixture(),
      startMcpHttpFixture(),
    ]);
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools'] });
    ollama.setShow('llama3.2', { capabilities: ['completion'] });
    app = await startTestApp({
      env: { OLLAMA_HOST: ollama.url, HF_TOKEN: 'hf_toolsTest1234', HUBDESK_ROUTER_URL: router.url },
      chat: { maxToolRounds: 3, toolTimeoutMs: 1_500, retryBaseMs: 5 },
      mcp: { connectTimeoutMs: 5_000, restartBaseMs: 50, restartMaxMs: 200 },
    });
    const view = await app.client.call('mcp.config.save', {
      text: mcpConfigText({
        fixture: stdioEntry(),
        remote: { url: remote.url },
        missing: { command: 'hubdesk-no-such-command-xyz' },
      }),
    });
    expect(view.errors).toEqual([]);
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all([ollama?.stop(), router?.stop(), remote?.stop()]);
  });
  beforeEach(() => {
    ollama.requests.length = 0;
    router.requests.length = 0;
    router.clearFaults();
    ollama.chatScript = defaultChatScript;
  });

  /** Sends a message; each call that waits for approval is answered by `answer` (by tool name). */
  async function send(id: string, content: string, answer: (m: ChatMessage) => Answer | undefined = () => 'once') {
    const events: ChatEvent[] = [];
    const asked: string[] = [];
    const answers: Promise<unknown>[] = [];
    const h = app.client.stream('chat.send', { id, content }, (evs) => {
      events.push(...evs);
      for (const e of evs) {
        if (e.type !== 'message' || e.message.role !== 'tool' || e.message.status !== 'streaming') continue;
        const a = answer(e.message);
        if (e.message.toolState === 'approval') asked.push(e.message.toolName!);
        if (a && (e.message.toolState === 'approval' || (a === 'cancel' && e.message.toolState === 'running')))
          answers.push(app.client.call('chat.toolDecision', { id, messageId: e.message.id, decision: a }));
      }
    });
    try {
      const result = await h.result;
      await Promise.all(answers);
      return { result, events, asked, error: undefined as AppError | undefined };
    } catch (e) {
      return { result: undefined, events, asked, error: e as AppError };
    }
  }
  const toolsOf = (m: ChatMessage[]) => m.filter((x) => x.role === 'tool');
  const ollamaConv = (sources: string[], model = 'qwen3:8b') =>
    app.client.call('chat.create', { model, toolSources: sources });
  /** The model calls `calls` when the user has just spoken, and answers with what the tools said after them. */
  const callsThenAnswer =
    (calls: { name: string; arguments: Record<string, unknown> }[]) =>
    (req: { messages?: { role: string; content?: string }[] }) => {
      const msgs = req.messages ?? [];
      const lastUser = msgs.findLastIndex((m) => m.role === 'user');
      const results = msgs.slice(lastUser).filter((m) => m.role === 'tool');
      return results.length
        ? { content: tokens(`Tools said: ${results.map((r) => r.content).join(' | ')}`) }
        : { content: [], tool_calls: calls };
    };

  it('offers the tools of a stdio and an HTTP server (same names told apart), runs an approved call, and the model answers with its result', async () => {
    const conv = await ollamaConv(['fixture', 'remote']);
    ollama.chatScript = callsThenAnswer([{ name: 'fixture_add', arguments: { a: 2, b: 40 } }]);
    const { result, error, asked } = await send(conv.id, 'What is 2 + 40?');
    expect(error).toBeUndefined();
    expect(asked).toEqual(['fixture_add']);
    const offered = (ollama.requestsTo('/api/chat')[0].body as { tools: { function: { name: string } }[] }).tools;
    expect(offered.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['fixture_add', 'remote_add', 'fixture_echo', 'remote_image']),
    );
    expect(offered).toHaveLength(18);
    const [tool] = toolsOf(result!.messages);
    expect(tool).toMatchObject({
      toolName: 'fixture_add',
      toolSource: 'fixture',
      toolArguments: { a: 2, b: 40 },
      toolDecision: 'once',
      status: 'complete',
      content: '42',
    });
    expect(tool.durationMs).toBeGreaterThanOrEqual(0);
    expect(tool.toolCallId).toMatch(/^call_/);
    // The model got the result as a tool turn after its call, and answered with it.
    const second = ollama.requestsTo('/api/chat')[1].body as { messages: Record<string, unknown>[] };
    expect(second.messages.slice(-2)).toMatchObject([
      { role: 'assistant', tool_calls: [{ function: { name: 'fixture_add', arguments: { a: 2, b: 40 } } }] },
      { role: 'tool', tool_name: 'fixture_add', content: '42' },
    ]);
    expect(result!.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Tools said: 42' });
    // Persisted: the call, its result, the decision and the timing come back after a reload.
    const saved = await app.client.call('chat.get', { id: conv.id });
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(saved.messages[2]).toMatchObject({ content: '42', toolDecision: 'once', toolSource: 'fixture' });
    expect(saved.messages[2].toolState).toBeUndefined();
  });

  it('"always" runs the same tool without asking again in this conversation only', async () => {
    const conv = await ollamaConv(['remote']);
    ollama.chatScript = callsThenAnswer([{ name: 'echo', arguments: { text: 'hi' } }]);
    const first = await send(conv.id, 'echo hi', () => 'always');
    expect(first.asked).toEqual(['echo']);
    expect((await app.client.call('chat.get', { id: conv.id })).meta.toolsAllowed).toEqual(['remote/echo']);
    const second = await send(conv.id, 'again', () => undefined);
    expect(second.error).toBeUndefined();
    expect(second.asked).toEqual([]);
    expect(toolsOf(second.result!.messages)[0]).toMatchObject({ toolDecision: 'auto', content: 'hi' });
    // Another conversation asks.
    const other = await ollamaConv(['remote']);
    expect((await send(other.id, 'echo hi')).asked).toEqual(['echo']);
  });

  it('a denied call goes back to the model as declined; a tool error goes back as its result', async () => {
    const conv = await ollamaConv(['fixture']);
    ollama.chatScript = callsThenAnswer([
      { name: 'echo', arguments: { text: 'secret plans' } },
      { name: 'fail', arguments: {} },
    ]);
    const { result } = await send(conv.id, 'try both', (m) => (m.toolName === 'echo' ? 'deny' : 'once'));
    const [denied, failed] = toolsOf(result!.messages);
    expect(denied).toMatchObject({ status: 'error', toolDecision: 'deny', error: { code: 'forbidden' } });
    expect(failed).toMatchObject({ status: 'error', content: 'the tool failed on purpose' });
    expect(failed.error!.message).toMatch(/fail reported an error: the tool failed on purpose/);
    expect(result!.messages.at(-1)!.content).toBe(
      'Tools said: The user declined to run this tool call. | the tool failed on purpose',
    );
  });

  it('a running call can be cancelled, and one that hangs times out; the model is told and the reply goes on', async () => {
    const conv = await ollamaConv(['fixture']);
    ollama.chatScript = callsThenAnswer([
      { name: 'slow', arguments: { ms: 60_000 } },
      { name: 'slow', arguments: { ms: 60_000 } },
    ]);
    let n = 0;
    // The first is cancelled once it runs; the second is left to hit the 1.5 s timeout.
    const { result, error } = await send(conv.id, 'wait', (m) =>
      m.toolState === 'approval' ? 'once' : n++ === 0 ? 'cancel' : undefined,
    );
    expect(error).toBeUndefined();
    const [cancelled, timedOut] = toolsOf(result!.messages);
    expect(cancelled).toMatchObject({
      status: 'error',
      error: { code: 'aborted', message: 'You cancelled this call.' },
    });
    expect(timedOut).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    expect(timedOut.error!.message).toMatch(/did not answer slow within 2 s|within 1\.5 s|within 1 s/);
    expect(result!.messages.at(-1)!.content).toMatch(/^Tools said: The user cancelled this tool call\. \| Error: /);
  });

  it('a server that exits mid-call, a 10 MB result, an image: clear results, other servers unaffected', async () => {
    const conv = await ollamaConv(['fixture', 'remote']);
    ollama.chatScript = callsThenAnswer([
      { name: 'fixture_crash', arguments: {} },
      { name: 'remote_big', arguments: { mb: 10 } },
      { name: 'remote_image', arguments: {} },
    ]);
    const { result, error } = await send(conv.id, 'go');
    expect(error).toBeUndefined();
    const [crashed, big, image] = toolsOf(result!.messages);
    expect(crashed.status).toBe('error');
    expect(crashed.error!.message).toMatch(/fixture/);
    expect(big.status).toBe('complete');
    expect(big.content).toMatch(/cut by HubDesk/);
    expect(big.content.length).toBeLessThan(40_000);
    expect(image).toMatchObject({ status: 'complete', images: [expect.stringMatching(/^iVBOR/)] });
    expect(image.content).toContain('a 1×1 orange square');
    const last = ollama.requestsTo('/api/chat').at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(last.messages.filter((m) => m.role === 'tool').map((m) => m.content.length)).toEqual([
      crashed.content.length,
      big.content.length,
      image.content.length,
    ]);
  });

  it('an unknown tool and a server that does not start: messages in the chat, the other tools still offered', async () => {
    const conv = await ollamaConv(['missing', 'fixture']);
    ollama.chatScript = callsThenAnswer([{ name: 'no_such_tool', arguments: {} }]);
    const { result, error, asked } = await send(conv.id, 'go');
    expect(error).toBeUndefined();
    expect(asked).toEqual([]);
    const reply = result!.messages.find((m) => m.role === 'assistant')!;
    expect(reply.notice).toMatch(/The MCP server "missing" (did not start|is error).*hubdesk-no-such-command-xyz/);
    expect(reply.notice).toMatch(/tools of the other sources were offered/);
    const [unknown] = toolsOf(result!.messages);
    expect(unknown).toMatchObject({ status: 'error', error: { code: 'invalid_input' } });
    expect(unknown.error!.message).toMatch(/no tool named "no_such_tool".*echo, add/);
  });

  it('tool rounds are bounded: after the last one the model answers without tools, and the reply says so', async () => {
    const conv = await ollamaConv(['fixture']);
    await app.client.call('chat.update', { id: conv.id, patch: { toolsAllowed: ['fixture/echo'] } });
    ollama.chatScript = (req) =>
      req.tools?.length
        ? { content: [], tool_calls: [{ name: 'echo', arguments: { text: 'again' } }] }
        : { content: tokens('Done looping.') };
    const { result } = await send(conv.id, 'loop');
    const chats = ollama.requestsTo('/api/chat');
    expect(chats.map((r) => ((r.body as { tools?: unknown[] }).tools ?? []).length)).toEqual([9, 9, 9, 0]);
    expect(result!.messages.at(-1)).toMatchObject({ content: 'Done looping.' });
    expect(result!.messages.at(-1)!.notice).toMatch(/offered for 3 rounds/);
  });

  it('a model without the tools capability is offered none, and the reply says why', async () => {
    const conv = await ollamaConv(['fixture'], 'llama3.2');
    const { result } = await send(conv.id, 'hi');
    expect((ollama.requestsTo('/api/chat')[0].body as { tools?: unknown }).tools).toBeUndefined();
    expect(result!.messages.at(-1)!.notice).toMatch(/llama3\.2 cannot call tools/);
  });

  it('Stop while a call waits for approval: the call and the reply are kept as stopped', async () => {
    const conv = await ollamaConv(['fixture']);
    ollama.chatScript = callsThenAnswer([{ name: 'echo', arguments: { text: 'x' } }]);
    const events: ChatEvent[] = [];
    const h = app.client.stream('chat.send', { id: conv.id, content: 'stop me' }, (evs) => {
      events.push(...evs);
      if (evs.some((e) => e.type === 'message' && e.message.toolState === 'approval')) h.cancel();
    });
    await expect(h.result).rejects.toMatchObject({ code: 'aborted' });
    await expect
      .poll(async () => (await app.client.call('chat.get', { id: conv.id })).messages.map((m) => m.status))
      .toEqual(['complete', 'complete', 'stopped']);
    // The conversation goes on: the next message is answered (the stopped call's turn stays in the context).
    ollama.chatScript = defaultChatScript;
    const next = await send(conv.id, 'hello again');
    expect(next.error).toBeUndefined();
  });

  describe('router conversations', () => {
    const routerConv = () =>
      app.client.call('chat.create', { backend: 'provider', model: ROUTER_MODEL, toolSources: ['fixture'] });

    it('sends OpenAI tools, assembles streamed argument fragments, and answers the call by its id', async () => {
      const conv = await routerConv();
      router.script = (req) =>
        req.messages?.some((m) => m.role === 'tool')
          ? { content: words('The sum is 42.') }
          : {
              content: [],
              tool_calls: [{ name: 'add', arguments: '{"a": 2, "b": 40}', id: 'call_r1' }],
              argumentChunk: 3,
            };
      const { result, error } = await send(conv.id, 'add them');
      expect(error).toBeUndefined();
      const [first, second] = router.requestsTo('/v1/chat/completions').map((r) => r.body as Record<string, never>);
      expect((first.tools as { type: string; function: { name: string } }[]).map((t) => t.function.name)).toContain(
        'add',
      );
      expect(result!.messages.find((m) => m.role === 'assistant')!.toolCalls).toEqual([
        { id: 'call_r1', name: 'add', arguments: { a: 2, b: 40 } },
      ]);
      expect((second.messages as unknown[]).slice(-2)).toEqual([
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_r1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":40}' } }],
        },
        { role: 'tool', tool_call_id: 'call_r1', content: '42' },
      ]);
      expect(result!.messages.at(-1)!.content).toBe('The sum is 42.');
      // "Open as code" sends the same turns: the call with its id and string arguments, then its result.
      const { snippets } = await app.client.call('chat.code', { id: conv.id });
      const py = snippets.find((s) => s.language === 'python' && s.client === 'openai')!.content;
      expect(py).toContain('"tool_calls": [');
      expect(py).toContain('"arguments": "{\\"a\\":2,\\"b\\":40}"');
      expect(py).toMatch(/"role": "tool",\s+"tool_call_id": "call_r1",\s+"content": "42"/);
    });

    it('a provider that refuses tools (400) says how to go on: tools off, or another provider', async () => {
      const conv = await routerConv();
      router.failWith(400, {
        times: 1,
        body: {
          error: { message: '"auto" tool choice requires --enable-auto-tool-choice', type: 'invalid_request_error' },
        },
      });
      const { error, result } = await send(conv.id, 'add');
      expect(result).toBeUndefined();
      expect(error).toMatchObject({ code: 'invalid_input' });
      expect(error!.message).toMatch(
        /auto-tool-choice.*may not support tool calling: turn this conversation's tools off/,
      );
      const saved = await app.client.call('chat.get', { id: conv.id });
      expect(saved.messages.map((m) => [m.role, m.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'error'],
      ]);
    });

    it('arguments that are not JSON are answered with an error the model reads, not run', async () => {
      const conv = await routerConv();
      router.script = (req) =>
        req.messages?.some((m) => m.role === 'tool')
          ? { content: words('Sorry, bad arguments.') }
          : { content: [], tool_calls: [{ name: 'add', arguments: '{"a": 2, "b": ' }] };
      const { result, asked } = await send(conv.id, 'add');
      expect(asked).toEqual([]);
      const [tool] = toolsOf(result!.messages);
      expect(tool).toMatchObject({ status: 'error', error: { code: 'invalid_input' } });
      expect(tool.error!.message).toMatch(/arguments of add are not a JSON object: \{"a": 2, "b": /);
      expect(result!.messages.at(-1)!.content).toBe('Sorry, bad arguments.');
    });
  });

  it('lists the sources for the settings: the web tools and each server with its state', async () => {
    const { sources } = await app.client.call('chat.toolSources', {});
    expect(sources.map((s) => [s.id, s.kind])).toEqual([
      [WEB_TOOLS, 'builtin'],
      ['fixture', 'mcp'],
      ['remote', 'mcp'],
      ['missing', 'mcp'],
    ]);
    expect(sources[0].tools.map((t) => t.name)).toEqual(['web_search', 'web_fetch']);
    expect(sources[0].message).toMatch(/ollama\.com API key/);
    expect(sources.find((s) => s.id === 'fixture')!.tools.map((t) => t.name)).toContain('add');
  });

  it('"Open as code" carries the tool calls and results the model was sent', async () => {
    const conv = await ollamaConv(['fixture']);
    ollama.chatScript = callsThenAnswer([{ name: 'add', arguments: { a: 1, b: 2 } }]);
    await send(conv.id, 'one plus two');
    const { snippets } = await app.client.call('chat.code', { id: conv.id });
    const curl = snippets.find((s) => s.language === 'sh')!.content;
    const body = JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]) as { messages: Record<string, unknown>[] };
    expect(body.messages).toMatchObject([
      { role: 'user', content: 'one plus two' },
      { role: 'assistant', tool_calls: [{ function: { name: 'add', arguments: { a: 1, b: 2 } } }] },
      { role: 'tool', content: '3', tool_name: 'add' },
    ]);
  });

  it('a decision for a call that is not waiting is refused with a clear message', async () => {
    const conv = await ollamaConv([]);
    await expect(
      app.client.call('chat.toolDecision', { id: conv.id, messageId: 'm_nothere1', decision: 'once' }),
    ).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/no longer waiting/) });
  });
});
