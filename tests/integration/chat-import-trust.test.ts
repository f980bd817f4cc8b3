import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_TOOLS, toolKey } from '@shared/contract/chat-conversation';
import type { ConversationExport } from '@shared/contract/chat-export';
import type { ChatEvent } from '@shared/contract/chat-events';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import { fixtureModel, startOllamaFixture, tokens, type OllamaFixture } from '../fixtures/ollama';
import { syntheticExport } from '../fixtures/conversation';
import { startTestApp, type TestApp } from '../helpers/app';

/** A file that asks for tools: the MCP fixture on, its `add` allowed "always", and the old web-search switch. */
function trustingFile(title: string): ConversationExport {
  const exp = syntheticExport(2, title);
  return {
    ...exp,
    meta: {
      ...exp.meta,
      id: `c_${title.toLowerCase()}`,
      model: 'qwen3:8b',
      toolSources: ['fixture'],
      toolsAllowed: [toolKey('fixture', 'add'), toolKey(WEB_TOOLS, 'web_search')],
    },
    messages: exp.messages.map((m, i) => ({ ...m, id: `m_${title.toLowerCase()}${i}` })),
  };
}

/** An import brings no trust: what a file allowed stays off until the user turns it on, and every call asks. */
describe('an imported conversation arrives with no tool allowed', () => {
  let ollama: OllamaFixture;
  let app: TestApp;

  beforeAll(async () => {
    ollama = await startOllamaFixture({ models: [fixtureModel('qwen3:8b', { family: 'qwen3' })] });
    ollama.setShow('qwen3:8b', { capabilities: ['completion', 'tools'] });
    app = await startTestApp({ env: { OLLAMA_HOST: ollama.url }, mcp: { connectTimeoutMs: 5_000 } });
    await app.client.call('mcp.config.save', { text: mcpConfigText({ fixture: stdioEntry() }) });
  });
  afterAll(async () => {
    await app?.close();
    await ollama?.stop();
  });

  it('sources come in off (listed as imported), "always" lists are dropped, and a tool call waits for approval', async () => {
    const single = await app.client.call('chat.import', { text: JSON.stringify(trustingFile('Single')) });
    const legacy = { ...trustingFile('Legacy'), meta: { ...trustingFile('Legacy').meta, webSearch: true } };
    delete (legacy.meta as Partial<ConversationExport['meta']>).toolSources;
    const { conversations } = await app.client.call('chat.importFile', {
      text: JSON.stringify({
        format: 'hubdesk.conversations',
        version: 1,
        exportedAt: '2026-01-01T00:00:00Z',
        conversations: [trustingFile('Archived'), legacy],
      }),
    });
    for (const meta of [single, ...conversations]) {
      const saved = (await app.client.call('chat.get', { id: meta.id })).meta;
      expect(saved, meta.title).toMatchObject({ toolSources: [], toolsAllowed: [] });
      expect(saved.importedToolSources, meta.title).toEqual(meta.title === 'Legacy' ? [WEB_TOOLS] : ['fixture']);
    }

    // Turning the source on is the user's choice; it clears the note. Allowing stays per call.
    const on = await app.client.call('chat.update', { id: single.id, patch: { toolSources: ['fixture'] } });
    expect(on.importedToolSources).toBeUndefined();
    ollama.chatScript = (req) =>
      req.messages?.at(-1)?.role === 'tool'
        ? { content: tokens('done') }
        : { content: [], tool_calls: [{ name: 'add', arguments: { a: 1, b: 2 } }] };
    const asked: string[] = [];
    const h = app.client.stream('chat.send', { id: single.id, content: 'add 1 and 2' }, (evs: ChatEvent[]) => {
      for (const e of evs)
        if (e.type === 'message' && e.message.role === 'tool' && e.message.toolState === 'approval') {
          asked.push(e.message.toolName!);
          void app.client.call('chat.toolDecision', { id: single.id, messageId: e.message.id, decision: 'deny' });
        }
    });
    const { messages } = await h.result;
    expect(asked).toEqual(['add']);
    expect(messages.find((m) => m.role === 'tool')).toMatchObject({ toolDecision: 'deny', status: 'error' });
  });
});
