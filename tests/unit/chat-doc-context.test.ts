import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import type { ConversationTreeExport, TreeMessage } from '@shared/contract/chat-export';
import type { ReplyContext } from '@shared/contract/documents';
import { toMarkdown } from '../../electron/main/services/chat/files/export-format';
import {
  docBudget,
  modelContext,
  notIndexedNotice,
  UNKNOWN_CONTEXT,
} from '../../electron/main/services/chat/replies/doc-context';
import { fitTurns, toTurns } from '../../electron/main/services/chat/replies/turns';
import { EndpointKind } from '../../electron/main/services/engines/endpoint/kind';
import { LocalKind } from '../../electron/main/services/engines/local/kind';
import { Engines, type EngineOptions } from '../../electron/main/services/engines/registry';
import { createLogger } from '../../electron/main/services/log';

const msg = (role: ChatMessage['role'], content: string, more: Partial<ChatMessage> = {}): ChatMessage => ({
  id: `m_${Math.random().toString(36).slice(2)}`,
  role,
  content,
  status: 'complete',
  createdAt: '2026-01-01T00:00:00Z',
  ...more,
});

describe("the documents' context in the turns", () => {
  it('joins the prompt in its one system message (or is it without one), and fitTurns keeps it', () => {
    const history = [msg('user', 'q1'), msg('assistant', 'a1'), msg('user', 'q2')];
    expect(toTurns('S', history, { context: 'DOCS' }).slice(0, 2)).toEqual([
      { role: 'system', content: 'S\n\nDOCS' },
      { role: 'user', content: 'q1' },
    ]);
    expect(toTurns('', history, { context: 'DOCS' })[0]).toEqual({ role: 'system', content: 'DOCS' });
    expect(toTurns('S', history).filter((t) => t.role === 'system')).toHaveLength(1);
    const fit = fitTurns(toTurns('S', history, { context: 'DOCS' }), 2);
    expect(fit.map((t) => t.content)).toEqual(['S\n\nDOCS', 'q2']);
  });
});

describe('the budget for documents', () => {
  it("is the context less the conversation, the answer's room and a margin; never below 0", () => {
    const turns = toTurns('', [msg('user', 'x'.repeat(400))]);
    // 4096 − 1024 (answer) − (100 + 8) (the question) − 205 (a twentieth).
    expect(docBudget(4096, turns, undefined)).toBe(4096 - 1024 - 108 - 205);
    expect(docBudget(4096, turns, 100)).toBe(4096 - 100 - 108 - 205);
    // A max_tokens past half the context leaves half for the rest.
    expect(docBudget(4096, turns, 1_000_000)).toBe(4096 - 2048 - 108 - 205);
    expect(docBudget(1024, toTurns('', [msg('user', 'x'.repeat(8000))]), undefined)).toBe(0);
  });

  it("takes the engine's context: the endpoint's, the built-in load plan's, the loaded model's; else 4,096", async () => {
    const meta = { backend: 'endpoint' as const, model: 'm', endpoint: 'e_1', params: {} };
    const endpoints = {
      connection: () => ({ describe: async () => ({ id: 'm', contextLength: 32_768 }) }),
    } as unknown as EngineOptions['endpoints'];
    const endpoint = new EndpointKind({ endpoints });
    expect(await modelContext(meta, endpoint)).toBe(32_768);
    expect(await modelContext({ ...meta, params: { num_ctx: 2048 } }, endpoint)).toBe(2048);
    expect(await modelContext(meta, new EndpointKind({}))).toBe(UNKNOWN_CONTEXT);
    const local = (loaded: number | undefined) =>
      new LocalKind({
        runtime: { status: () => ({ loaded: loaded ? [{ id: 'g', contextSize: loaded }] : [] }) },
        model: async () => ({ id: 'g', plan: { contextSize: 8192 } }),
      } as unknown as EngineOptions['local']);
    const g = { backend: 'local' as const, model: 'g', params: {} };
    expect(await modelContext(g, local(undefined))).toBe(8192);
    expect(await modelContext(g, local(2048))).toBe(2048);
    expect(await modelContext(g, new LocalKind(undefined))).toBe(UNKNOWN_CONTEXT);
    const router = new Engines({
      ollama: undefined as never,
      log: createLogger(),
      router: () => ({ routerUrl: 'http://127.0.0.1:9', billTo: '' }),
      hfToken: () => undefined,
      routerFetch: fetch,
    }).kind('provider');
    expect(await modelContext({ backend: 'provider', model: 'x/y', params: {} }, router)).toBe(UNKNOWN_CONTEXT);
  });

  it('names what is not indexed yet, eight at most', () => {
    expect(notIndexedNotice(['a.pdf'])).toBe('Not indexed yet: a.pdf — the answer did not see them.');
    const many = notIndexedNotice(Array.from({ length: 20 }, (_, i) => `${'n'.repeat(200)}${i}.md`));
    expect(many).toMatch(/ and 12 more — the answer did not see them\.$/);
    expect(many.length).toBeLessThan(2_000);
  });
});

describe('Markdown export of a reply that used documents', () => {
  const context: ReplyContext = {
    mode: 'retrieved',
    citations: [
      { n: 1, chunk: 1, document: 'd_a', name: 'manual.pdf', page: 3, excerpt: 'The valve\nopens at <b>42</b> bar.' },
      { n: 2, chunk: 2, document: 'd_b', name: 'notes.md', heading: 'Install', excerpt: 'Run the script.' },
    ],
    notIndexed: ['big.pdf'],
    text: 'DOCS',
  };
  const tree = (messages: ChatMessage[]): ConversationTreeExport => ({
    format: 'hubdesk.conversation',
    version: 2,
    meta: {
      id: 'c_1',
      title: 'Valves',
      backend: 'ollama',
      model: 'llama3.2',
      provider: 'auto',
      system: '',
      params: {},
      toolSources: [],
      toolsAllowed: [],
      pinned: false,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      messageCount: messages.length,
    },
    leafId: messages.at(-1)!.id,
    messages: messages.map((m, i): TreeMessage => ({ ...m, parentId: messages[i - 1]?.id ?? null })),
  });

  it('lists the sources once under the answer (its tool rounds share them), inert, one line each', () => {
    const md = toMarkdown(
      tree([
        msg('user', 'When?'),
        msg('assistant', '', { context, toolCalls: [{ id: 'c1', name: 'calc', arguments: {} }] }),
        msg('tool', '42', { toolName: 'calc', toolCallId: 'c1' }),
        msg('assistant', 'At 42 bar [1].', { context }),
        msg('user', 'Thanks'),
        msg('assistant', 'You are welcome.'),
      ]),
      'Ollama',
    );
    expect(md.match(/Sources:/g)).toHaveLength(1);
    expect(md).toContain(
      [
        'At 42 bar [1].',
        '',
        'Sources:',
        '',
        '- [1] manual.pdf, p. 3 — The valve opens at &lt;b>42&lt;/b> bar.',
        '- [2] notes.md, § Install — Run the script.',
        '',
        '> Not indexed yet: big.pdf — the answer did not see them.',
      ].join('\n'),
    );
    expect(md.indexOf('Sources:')).toBeLessThan(md.indexOf('## User\n\nThanks'));
  });

  it('says when documents went whole', () => {
    const md = toMarkdown(
      tree([msg('user', 'Sum up'), msg('assistant', 'It is short.', { context: { ...context, mode: 'whole' } })]),
      'Ollama',
    );
    expect(md).toContain('Sources (whole documents):');
  });
});
